/**
 * A simulator and a gateway on real ephemeral ports, wired as in production:
 * every test request crosses HTTP twice (client → gateway → simulator), and
 * the simulator's call log counts what reached the upstream.
 */
import pino from 'pino';
import { createGateway, type GatewayOptions } from '../../src/gateway/gateway.js';
import {
  listen,
  type RequestTimeouts,
  type RunningServer,
} from '../../src/server/http/http-server.js';
import {
  type Simulator,
  type SimulatorOptions,
  startSimulator,
} from '../../src/simulator/index.js';

export const SERVER_KEY = 'test-server-key';
export const CLIENT_KEY = 'test-client-key';
export const OTHER_CLIENT_KEY = 'test-other-client-key';

/** The upstream client's limits in tests: short time-outs, room for a page's widest fan-out. */
export const TEST_CLIENT_OPTIONS = {
  connectTimeoutMs: 2_000,
  headersTimeoutMs: 5_000,
  bodyTimeoutMs: 5_000,
  maxConcurrency: 16,
  maxQueue: 1_000,
  maxBodyBytes: 5 * 1024 * 1024,
};

export interface StackOptions {
  readonly simulator?: SimulatorOptions;
  /** Pass-through mode: no server key, clients send their own. */
  readonly passThrough?: boolean;
  readonly gateway?: Partial<Omit<GatewayOptions, 'upstreamUrl'>>;
  /** Reuse a running simulator (several gateways against one upstream). */
  readonly sharedSimulator?: Simulator;
  /** The HTTP server's slow-client limits; absent: production's. */
  readonly timeouts?: RequestTimeouts;
}

export interface GraphQLResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: {
    data?: Record<string, unknown> | null;
    errors?: {
      message: string;
      path?: (string | number)[];
      extensions?: Record<string, unknown>;
    }[];
    extensions?: Record<string, unknown>;
  };
}

export interface Stack {
  readonly simulator: Simulator;
  readonly gateway: ReturnType<typeof createGateway>;
  readonly url: string;
  /** Calls that reached the simulator since it started or since `simulator.resetCalls()`. */
  upstreamCalls(): number;
  query(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<GraphQLResponse>;
  close(): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const simulator =
    options.sharedSimulator ??
    (await startSimulator({
      apiKeys: [SERVER_KEY, CLIENT_KEY, OTHER_CLIENT_KEY],
      dailyLimit: 1_000_000,
      ...options.simulator,
    }));
  const gateway = createGateway({
    upstreamUrl: simulator.url,
    upstreamApiKey: options.passThrough ? undefined : SERVER_KEY,
    dailyLimit: 1000,
    client: TEST_CLIENT_OPTIONS,
    deadlineMs: 10_000,
    retries: 2,
    cache: {
      ttlMs: 60_000,
      notFoundTtlMs: 10_000,
      retentionMs: 600_000,
      maxEntries: 10_000,
      maxBytes: 64 * 1024 * 1024,
    },
    logger: pino({ level: 'silent' }),
    ...options.gateway,
  });
  const running: RunningServer = await listen(gateway, 0, '127.0.0.1', options.timeouts);
  const url = running.url.replace('localhost', '127.0.0.1');

  return {
    simulator,
    gateway,
    url,
    upstreamCalls: () => simulator.calls.length,
    query: (query, variables, headers = {}) => postGraphQL(url, query, variables, headers),
    async close() {
      await running.close(1_000);
      if (options.sharedSimulator === undefined) await simulator.close();
    },
  };
}

/**
 * One GraphQL request over HTTP POST, as a client such as urql sends it:
 * a single JSON answer, or for an operation with @defer/@stream the
 * multipart/mixed incremental payloads merged into one answer.
 */
export function postGraphQL(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<GraphQLResponse> {
  return postGraphQLBody(url, { query, variables }, headers);
}

/** The same with any request body (a persisted operation's `documentId`, say). */
export async function postGraphQLBody(
  url: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<GraphQLResponse> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, multipart/mixed;q=0.9',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    headers: response.headers,
    body: type.startsWith('multipart/mixed')
      ? mergedIncrementalBody(multipartParts(text, type))
      : (JSON.parse(text) as GraphQLResponse['body']),
  };
}

type IncrementalPart = GraphQLResponse['body'] & {
  incremental?: {
    data?: Record<string, unknown>;
    items?: unknown[];
    path: (string | number)[];
    errors?: GraphQLResponse['body']['errors'];
  }[];
};

export function multipartParts(text: string, contentType: string): IncrementalPart[] {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1] ?? '-';
  return text
    .split(`--${boundary}`)
    .map((part) => part.slice(part.indexOf('\r\n\r\n') + 4).trim())
    .filter((part) => part.startsWith('{'))
    .map((part) => JSON.parse(part) as IncrementalPart);
}

/** The incremental payloads applied to the first one, as a client's cache would see the whole answer. */
function mergedIncrementalBody(parts: readonly IncrementalPart[]): GraphQLResponse['body'] {
  const [first, ...rest] = parts;
  const data = (first?.data ?? null) as Record<string, unknown> | null;
  const errors = [...(first?.errors ?? [])];
  let extensions = first?.extensions;
  for (const part of rest) {
    for (const increment of part.incremental ?? []) {
      let target: unknown = data;
      for (const key of increment.path)
        target = (target as Record<string | number, unknown> | null)?.[key];
      if (increment.data !== undefined && target !== null && typeof target === 'object')
        Object.assign(target, increment.data);
      if (increment.items !== undefined && Array.isArray(target)) target.push(...increment.items);
      errors.push(...(increment.errors ?? []));
    }
    errors.push(...(part.errors ?? []));
    if (part.extensions !== undefined) extensions = { ...extensions, ...part.extensions };
  }
  return {
    data,
    ...(errors.length > 0 ? { errors } : {}),
    ...(extensions === undefined ? {} : { extensions }),
  };
}
