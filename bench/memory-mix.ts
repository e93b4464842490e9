/**
 * The load of issue 29, as anonymous clients behind one proxy send it: each
 * virtual client has an `X-Forwarded-For` address of its own (the gateway
 * tells them apart with RATE_LIMIT_TRUST_PROXY=true), opens a connection of
 * its own and asks once. Used by `npm run bench:memory` (bench/memory.ts) at
 * issue 29's counts and by test/server/memory-bound.spec.ts at smaller ones.
 *
 * - GraphiQL page loads: `Accept: text/html`, `Accept-Encoding: gzip, br`, the
 *   whole body read, as a browser loads it.
 * - Distinct top-20-with-history answers: each a different operation name,
 *   so each is a response-cache miss (over a warm upstream cache).
 * - Identical ones: the same request each time (response-cache hits).
 * - Idle subscribers: an SSE subscription whose response head is read, then
 *   nothing more, the connection left open.
 */
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { TOP_20_WITH_HISTORY_QUERY } from './reference-queries.js';

export interface MixCounts {
  readonly pages: number;
  readonly distinct: number;
  readonly identical: number;
  readonly subscribers: number;
}

/** How the requests of a phase were answered: statuses counted, failures (no answer at all) kept. */
export interface PhaseOutcome {
  readonly statuses: Readonly<Record<number, number>>;
  readonly failures: readonly string[];
}

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly bytes: number;
}

/** A new connection per request: each virtual client is a browser of its own. */
const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

let clients = 0;
/** A distinct client address per call, as a proxy would forward it. */
function nextClient(): string {
  clients += 1;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
}

/** One request on a connection of its own; the whole body read and counted. */
export function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: options.method ?? 'GET',
        headers: { 'x-forwarded-for': nextClient(), ...options.headers },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.once('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }),
        );
        res.once('error', reject);
      },
    );
    req.once('error', reject);
    req.end(options.body);
  });
}

const PAGE_HEADERS = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-encoding': 'gzip, br',
};

export function loadPage(endpoint: string, headers: Record<string, string> = {}): Promise<Answer> {
  return send(endpoint, { headers: { ...PAGE_HEADERS, ...headers } });
}

function postQuery(endpoint: string, query: string): Promise<Answer> {
  return send(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      'accept-encoding': 'gzip, br',
    },
    body: JSON.stringify({ query }),
  });
}

/** The top 20 with histories under an operation name of its own: a response-cache miss of its own. */
export function distinctTop20(endpoint: string, n: number): Promise<Answer> {
  return postQuery(endpoint, `query Top20Number${n} ${TOP_20_WITH_HISTORY_QUERY}`);
}

export function identicalTop20(endpoint: string): Promise<Answer> {
  return postQuery(endpoint, TOP_20_WITH_HISTORY_QUERY);
}

/** Every call started at once; each call's status counted, or its failure kept. */
export async function concurrently(
  count: number,
  call: (index: number) => Promise<Answer>,
): Promise<PhaseOutcome> {
  const statuses: Record<number, number> = {};
  const failures: string[] = [];
  await Promise.all(
    Array.from({ length: count }, (_, index) =>
      call(index).then(
        (answer) => {
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        },
        (error: unknown) => {
          failures.push(error instanceof Error ? error.message : String(error));
        },
      ),
    ),
  );
  return { statuses, failures };
}

const SUBSCRIPTION = 'subscription { milestoneCrossed { id threshold artist { name } } }';

/** Subscribers that read their response's head and then nothing: their connections stay open. */
export interface IdleSubscribers {
  /** The status line of each subscriber's answer (or why it got none). */
  readonly heads: readonly string[];
  close(): void;
}

export async function idleSubscribers(endpoint: string, count: number): Promise<IdleSubscribers> {
  const { hostname, port, pathname } = new URL(endpoint);
  const sockets: Socket[] = [];
  const heads = await Promise.all(
    Array.from({ length: count }, async () => {
      const socket = connect(Number(port), hostname);
      sockets.push(socket);
      socket.on('error', () => undefined);
      try {
        await once(socket, 'connect');
        socket.write(
          `GET ${pathname}?${new URLSearchParams({ query: SUBSCRIPTION })} HTTP/1.1\r\n` +
            `Host: ${hostname}:${port}\r\nAccept: text/event-stream\r\n` +
            `X-Forwarded-For: ${nextClient()}\r\n\r\n`,
        );
        const [first] = (await once(socket, 'data')) as [Buffer];
        // Never read again: whatever the gateway sends waits in its buffers and this socket's.
        socket.pause();
        return first.toString('latin1').split('\r\n')[0] ?? '';
      } catch (error) {
        return `no answer: ${error instanceof Error ? error.message : String(error)}`;
      }
    }),
  );
  return {
    heads,
    close() {
      for (const socket of sockets) socket.destroy();
    },
  };
}
