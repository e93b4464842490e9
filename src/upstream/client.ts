/**
 * The HTTP client for the upstream: one keep-alive undici Pool, bearer auth,
 * timeouts, a bounded body size and a bounded number of calls in flight.
 * It knows HTTP, not endpoints: callers pass a path built by `endpoints.ts`.
 */
import { Pool, errors as undiciErrors } from 'undici';
import { nextUtcMidnight } from '../time.js';
import { urlPath } from '../url-path.js';
import { CallLanes, CallPriority } from './call-lanes.js';
import { CallWatch, type UpstreamHealth } from './call-watch.js';
import { errorForStatus, UpstreamError } from './errors.js';
import { SILENT_OBSERVER, type UpstreamObserver } from './observer.js';
import { WarmConnections } from './warm-connections.js';

/**
 * How long a connection opened ahead waits for its call. Long enough for a first wave
 * of slow answers to land; servers keep a connection without a request for about a minute.
 */
const WARM_IDLE_MS = 10_000;

export interface UpstreamClientOptions {
  /**
   * A Unix socket the upstream is reached on, the URL then naming only the Host header and the
   * paths: the start-up warm-up's own simulator, which takes no port of the machine.
   */
  readonly socketPath?: string;
  /** Base URL of the upstream, e.g. https://api.example.com (paths start with /api/v1). */
  readonly baseUrl: string;
  readonly connectTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  /** Connections kept open to the upstream, and so calls in flight at once. */
  readonly maxConcurrency: number;
  /** Calls allowed to wait for a connection before new ones are refused. */
  readonly maxQueue: number;
  /** Bodies larger than this are refused rather than buffered. */
  readonly maxBodyBytes: number;
  /** Told of every request that leaves and of its outcome (metrics). */
  readonly observer?: UpstreamObserver;
}

/**
 * The budget's hold on a call: asked once the call has its connection slot,
 * right before it leaves (a queued call spends nothing and can still be
 * refused), and told at once when a 429 comes back, before the slot passes
 * to the next queued call, so that call is refused too.
 */
export interface SendGate {
  /** Throws to keep the call from leaving. */
  admit(): Promise<void>;
  /** The call that left is back (or failed), whatever it brought: a call on its way at midnight may count on both days. */
  answered(): Promise<void>;
  rateLimited(error: UpstreamError): void;
}

/** How one call is sent, beyond its path and key. */
export interface CallOptions {
  /** The budget's hold on the call. */
  readonly gate?: SendGate;
  /** The resource's name, for metrics. */
  readonly resource?: string;
  /** Its lane in the queue (call-lanes.ts); a reader's by default. */
  readonly priority?: CallPriority;
}

export interface UpstreamResponse {
  readonly body: unknown;
  readonly bytes: number;
}

export class UpstreamClient {
  readonly #pool: Pool;
  readonly #basePath: string;
  readonly #lanes: CallLanes;
  readonly #warm: WarmConnections;
  readonly #watch = new CallWatch();

  constructor(private readonly options: UpstreamClientOptions) {
    const base = new URL(options.baseUrl);
    this.#basePath = base.pathname.replace(/\/+$/, '');
    this.#warm = new WarmConnections(base, {
      connectTimeoutMs: options.connectTimeoutMs,
      idleMs: WARM_IDLE_MS,
      socketPath: options.socketPath,
    });
    this.#pool = new Pool(base.origin, {
      connections: options.maxConcurrency,
      connect: this.#warm.connector,
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
      keepAliveTimeout: 30_000,
      // undici counts the bytes as they arrive and drops the connection past the bound.
      maxResponseSize: options.maxBodyBytes,
    });
    this.#lanes = new CallLanes(options.maxConcurrency);
  }

  /** What the calls that left say of the upstream now. */
  health(): UpstreamHealth {
    return this.#watch.health();
  }

  /** GETs `path` with `apiKey`; resolves with the parsed JSON of a 2xx answer, throws UpstreamError otherwise. */
  get(
    path: string,
    apiKey: string,
    signal: AbortSignal,
    { gate, resource = 'unknown', priority = new CallPriority('reader') }: CallOptions = {},
  ): Promise<UpstreamResponse> {
    // Waiting calls hold memory and a client's patience: past the queue bound, fail fast instead.
    if (this.#lanes.size >= this.options.maxConcurrency + this.options.maxQueue) {
      return Promise.reject(
        new UpstreamError('UPSTREAM_ERROR', 'The gateway has too many upstream calls waiting', {
          path: urlPath(path),
          reason: 'overloaded',
        }),
      );
    }
    return this.#lanes.run(priority, async () => {
      // Its deadline may have passed while it queued: then it is not paid for, and never sent.
      if (signal.aborted) throw connectionError(signal.reason, path);
      await gate?.admit();
      try {
        return await this.#send(path, apiKey, signal, resource);
      } catch (error) {
        if (error instanceof UpstreamError && error.status === 429) gate?.rateLimited(error);
        throw error;
      } finally {
        await gate?.answered();
      }
    });
  }

  async #send(
    path: string,
    apiKey: string,
    signal: AbortSignal,
    resource: string,
  ): Promise<UpstreamResponse> {
    // The deadline may have passed while the call waited for a connection: a timeout, like any other.
    if (signal.aborted) throw connectionError(signal.reason, path);
    const observed = (this.options.observer ?? SILENT_OBSERVER).requestSent(resource);
    const watched = this.#watch.sent();
    const answered = (outcome: number | 'error') => {
      observed(outcome);
      watched(outcome === 'error' || outcome >= 500);
    };
    let response: Awaited<ReturnType<Pool['request']>>;
    try {
      response = await this.#pool.request({
        method: 'GET',
        path: this.#basePath + path,
        headers: {
          authorization: `Bearer ${apiKey}`,
          accept: 'application/json',
          'user-agent': 'music-stats-gateway',
        },
        signal,
      });
    } catch (error) {
      answered('error');
      throw connectionError(error, path);
    }

    const { statusCode, headers, body } = response;
    answered(statusCode);
    let text: string;
    try {
      text = await body.text();
    } catch (error) {
      body.destroy();
      if (error instanceof undiciErrors.ResponseExceededMaxSizeError) {
        throw new UpstreamError(
          'UPSTREAM_INVALID_RESPONSE',
          `The upstream API answered with more than ${this.options.maxBodyBytes} bytes`,
          { status: statusCode, path: urlPath(path) },
        );
      }
      throw connectionError(error, path);
    }

    if (statusCode >= 200 && statusCode < 300) {
      try {
        return { body: JSON.parse(text) as unknown, bytes: Buffer.byteLength(text) };
      } catch {
        throw new UpstreamError(
          'UPSTREAM_INVALID_RESPONSE',
          'The upstream API answered with a body that is not JSON',
          {
            status: statusCode,
            path: urlPath(path),
          },
        );
      }
    }

    const retryAfterSeconds = parseRetryAfter(headers['retry-after']);
    return Promise.reject(
      errorForStatus(statusCode, upstreamMessage(text), urlPath(path), {
        retryAfterSeconds,
        resetsAt: statusCode === 429 ? nextUtcMidnight(new Date()).toISOString() : undefined,
      }),
    );
  }

  /**
   * A request whose first call is about to leave expects up to `calls` in all (its estimate):
   * the connections the others will need beyond the pool's idle ones are opened while that
   * call is in flight, rather than after its answer. They are opened once it has left, so
   * that opening them never delays it.
   */
  expectCalls(calls: number): void {
    const { connected, free } = this.#pool.stats;
    const needed = Math.min(calls, this.options.maxConcurrency - (connected - free));
    // The first call takes an idle connection if there is one, or opens its own.
    const forTheOthers = needed - 1 - Math.max(free - 1, 0);
    if (forTheOthers > 0) setImmediate(() => this.#warm.warm(forTheOthers));
  }

  /**
   * Opens `count` connections for the first calls, with no request on them: a fresh process's
   * first request then finds its handshakes done. Unused, they close like any connection opened
   * ahead.
   */
  preconnect(count: number): void {
    this.#warm.warm(Math.min(count, this.options.maxConcurrency));
  }

  async close(): Promise<void> {
    this.#warm.close();
    await this.#pool.close();
  }
}

const TIMEOUT_ERRORS = [
  undiciErrors.ConnectTimeoutError,
  undiciErrors.HeadersTimeoutError,
  undiciErrors.BodyTimeoutError,
];

function connectionError(error: unknown, path: string): UpstreamError {
  const timedOut =
    TIMEOUT_ERRORS.some((type) => error instanceof type) ||
    (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'));
  return new UpstreamError(
    'UPSTREAM_ERROR',
    timedOut ? 'The upstream API did not answer in time' : 'The upstream API could not be reached',
    { path: urlPath(path), reason: timedOut ? 'timeout' : 'unreachable', cause: error },
  );
}

/** The `message` of an upstream error body, if it has the documented shape. */
function upstreamMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null && 'message' in parsed) {
      const { message } = parsed as { message: unknown };
      if (typeof message === 'string') return message.slice(0, 500);
    }
  } catch {
    // Not JSON (a proxy's HTML page, say): the status alone has to speak.
  }
  return '';
}

function parseRetryAfter(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}
