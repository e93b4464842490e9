/**
 * The HTTP side: a node:http server that logs each call, applies injected
 * faults, then latency, authentication, the daily budget and routing. Faults
 * come first and skip auth and budget: they stand for a broken network or
 * upstream, which answers before any key is checked.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { KeyRing } from './auth.js';
import { DailyBudget } from './budget.js';
import { CallLog, type CallRecord } from './call-log.js';
import { createSimulatorData, type SimulatorData } from './data.js';
import { Dataset } from './dataset.js';
import { formatDay, parseDay, utcDayOf } from './dates.js';
import { errorBody, HttpError, Messages } from './errors.js';
import { type Fault, FaultBook, type FaultOptions } from './faults.js';
import { requireLatency, resolveOptions, type SimulatorOptions } from './options.js';
import { parseQuery } from './query.js';
import { dispatch, pathSegments } from './routes.js';
import type { MilestoneRecord } from './types.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const MS_PER_HOUR = 3_600_000;
/** POST here (optionally `?artist=<slug>`) publishes a new milestone while running. */
export const PUBLISH_PATH = '/_simulator/milestones';
const STREAM_ITEM = '{"n":0},';
const STREAM_CHUNK = STREAM_ITEM.repeat(1024);

export interface Simulator {
  /** Base URL, e.g. http://127.0.0.1:40123 (API paths are /api/v1/...). */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order, including 401, 429 and faulted ones. */
  readonly calls: readonly CallRecord[];
  /** Connections accepted since the start, whether or not a request came on them. */
  readonly connectionsAccepted: number;
  resetCalls(): void;
  /** Forgets the daily counts. */
  resetUsage(): void;
  injectFault(fault: Fault, options?: FaultOptions): void;
  clearFaults(): void;
  setLatency(ms: number): void;
  /** A new milestone and the artist data it concerns, as after a refresh (see SimulatorData.publishMilestone). */
  publishMilestone(artistSlug?: string): MilestoneRecord | null;
  /** Stops listening and drops open connections (clients get connection refused); data is kept. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** Stops for good. */
  close(): Promise<void>;
  readonly data: SimulatorData;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const config = resolveOptions(options);
  const { refreshHourUtc } = config;
  /** The data day the clock says; with a refresh hour, the previous UTC day until that hour. */
  const clockDataDay = (): number =>
    utcDayOf(new Date(config.now().getTime() - (refreshHourUtc ?? 0) * MS_PER_HOUR));
  const dataDay = config.dataDate === undefined ? clockDataDay() : parseDay(config.dataDate);
  const data = createSimulatorData(
    new Dataset(config.seed, config.artists, dataDay, config.roughness),
  );
  const keys = new KeyRing(config.apiKeys, config.revokedKeys);
  const budget = new DailyBudget(config.dailyLimit, config.now);
  const calls = new CallLog();
  const faults = new FaultBook();
  const timers = new Set<NodeJS.Timeout>();
  let latencyMs = config.latencyMs;
  let port = config.port;
  let closed = false;

  /** Resolves after `ms`; never resolves if the simulator closes first (the socket is gone anyway). */
  const sleep = (ms: number): Promise<void> =>
    ms <= 0
      ? Promise.resolve()
      : new Promise((resolve) => {
          const timer = setTimeout(() => {
            timers.delete(timer);
            resolve();
          }, ms);
          timers.add(timer);
        });

  const send = (
    res: ServerResponse,
    record: CallRecord,
    status: number,
    text: string,
    headers: Record<string, string> = {},
  ): void => {
    record.status = status;
    if (res.destroyed || res.headersSent) return;
    res.writeHead(status, {
      'content-type': JSON_TYPE,
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    });
    res.end(text);
  };

  const answer = (
    req: IncomingMessage,
    rawPath: string,
    segments: string[] | HttpError,
    query: Record<string, string>,
  ): { status: number; body: unknown } => {
    const auth = keys.check(req.headers.authorization);
    if (!auth.ok) return { status: 401, body: errorBody(401, auth.message) };
    if (!budget.consume(auth.key))
      return { status: 429, body: errorBody(429, Messages.dailyLimit(config.dailyLimit)) };
    try {
      if (segments instanceof HttpError) throw segments;
      return {
        status: 200,
        body: dispatch(data, { method: req.method ?? 'GET', rawPath, segments, query }),
      };
    } catch (error) {
      if (error instanceof HttpError)
        return { status: error.status, body: errorBody(error.status, error.message) };
      console.error('simulator: unexpected error', error);
      return { status: 500, body: errorBody(500) };
    }
  };

  const applyFault = async (
    fault: Fault,
    req: IncomingMessage,
    res: ServerResponse,
    record: CallRecord,
  ): Promise<boolean> => {
    switch (fault.kind) {
      case 'delay':
        await sleep(fault.ms);
        return false;
      case 'hang':
        return true;
      case 'hold':
        await fault.until.catch(() => undefined);
        return false;
      case 'reset':
        req.socket.destroy();
        return true;
      case 'status': {
        await sleep(latencyMs);
        const headers: Record<string, string> =
          fault.retryAfterSeconds === undefined
            ? {}
            : { 'retry-after': String(fault.retryAfterSeconds) };
        const body =
          fault.body === undefined
            ? errorBody(
                fault.status,
                fault.status === 429 ? Messages.dailyLimit(config.dailyLimit) : undefined,
              )
            : fault.body;
        send(res, record, fault.status, JSON.stringify(body), headers);
        return true;
      }
      case 'raw': {
        await sleep(latencyMs);
        send(res, record, fault.status ?? 200, fault.body, {
          'content-type': fault.contentType ?? 'application/json',
        });
        return true;
      }
      case 'stream':
        await sleep(latencyMs);
        record.status = 200;
        await streamNeverEndingArray(res, fault.bytes);
        return true;
      case 'rewrite':
        return false;
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = req.url ?? '/';
    const cut = url.indexOf('?');
    const rawPath = cut < 0 ? url : url.slice(0, cut);
    const query = parseQuery(cut < 0 ? '' : url.slice(cut + 1));
    if (rawPath === PUBLISH_PATH) {
      publishOverHttp(req, res, query);
      return;
    }
    let segments: string[] | HttpError;
    try {
      segments = pathSegments(rawPath);
    } catch (error) {
      segments = error instanceof HttpError ? error : new HttpError(400, 'Bad Request');
    }
    const record = calls.open({
      method: req.method ?? 'GET',
      rawPath,
      segments: Array.isArray(segments) ? segments : rawPath.split('/').slice(1),
      query,
      key: KeyRing.keyOf(req.headers.authorization),
      ...(typeof req.headers.traceparent === 'string'
        ? { traceparent: req.headers.traceparent }
        : {}),
    });
    // A request cannot have left the client before its connection's handshake was over.
    const arrived = Math.max(
      performance.now(),
      (openedAt.get(req.socket) ?? Number.NEGATIVE_INFINITY) + config.handshakeMs,
    );
    const fault = faults.take(rawPath);
    if (fault !== null && fault.kind !== 'rewrite' && (await applyFault(fault, req, res, record)))
      return;
    // The refresh happens on the first request after its hour: nothing runs while nobody asks.
    if (refreshHourUtc !== undefined) data.refreshTo(formatDay(clockDataDay()));
    const { status, body } = answer(req, rawPath, segments, query);
    // A copy is rewritten: the answer may share objects with the dataset.
    const sent =
      fault?.kind === 'rewrite' && status === 200 ? fault.rewrite(structuredClone(body)) : body;
    const text = JSON.stringify(sent) ?? 'null';
    // The latency is the whole answer time, this process's work included, as a real upstream's
    // server time is: twenty requests arriving together all answer after it, not one after another.
    await sleep(Math.max(0, latencyMs - (performance.now() - arrived)));
    send(res, record, status, text);
  };

  /** The demo's way in (`npm start` prints it); outside /api/v1 and the call log, so figures stay the upstream's. */
  const publishOverHttp = (
    req: IncomingMessage,
    res: ServerResponse,
    query: Record<string, string>,
  ): void => {
    const reply = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': JSON_TYPE });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST') {
      reply(405, errorBody(405, 'Use POST to publish a milestone'));
      return;
    }
    const published = data.publishMilestone(query.artist);
    if (published === null) {
      reply(404, errorBody(404, Messages.artistNotFound(query.artist ?? '')));
      return;
    }
    reply(201, published);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('simulator: request failed', error);
      if (!res.headersSent && !res.destroyed) res.destroy();
    });
  });
  /** When each connection was accepted (performance.now()), for the handshake it stands for. */
  const openedAt = new WeakMap<Socket, number>();
  let connectionsAccepted = 0;
  server.on('connection', (socket: Socket) => {
    connectionsAccepted += 1;
    openedAt.set(socket, performance.now());
  });

  const listen = (): Promise<void> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      // Its own port even in a cluster worker (the gateway's start-up warm-up runs one there): a
      // shared one would be the primary's, handed round the workers with their own listeners'.
      const at =
        config.socketPath === undefined
          ? { port, host: config.host, exclusive: true }
          : { path: config.socketPath, exclusive: true };
      server.listen(at, () => {
        server.off('error', reject);
        const address = server.address();
        if (typeof address === 'object' && address !== null) port = (address as AddressInfo).port;
        resolve();
      });
    });

  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (!server.listening) {
        resolve();
        return;
      }
      server.close(() => resolve());
      server.closeAllConnections();
    });

  await listen();
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;

  return {
    get url() {
      // Over a Unix socket the URL names only what a client sends: its Host header and its paths.
      return config.socketPath === undefined ? `http://${host}:${port}` : 'http://localhost';
    },
    get port() {
      return port;
    },
    get calls() {
      return calls.all;
    },
    get connectionsAccepted() {
      return connectionsAccepted;
    },
    data,
    resetCalls: () => calls.reset(),
    resetUsage: () => budget.reset(),
    injectFault: (fault, faultOptions) => faults.inject(fault, faultOptions),
    clearFaults: () => faults.clear(),
    publishMilestone: (artistSlug) => data.publishMilestone(artistSlug),
    setLatency(ms) {
      requireLatency(ms);
      latencyMs = ms;
    },
    stop,
    async start() {
      if (closed) throw new Error('the simulator is closed');
      if (!server.listening) await listen();
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await stop();
    },
  };
}

/** Writes `[` and then array items up to exactly `bytes` bytes, honouring back-pressure; never ends the array. */
async function streamNeverEndingArray(res: ServerResponse, bytes: number): Promise<void> {
  if (res.destroyed) return;
  res.writeHead(200, { 'content-type': JSON_TYPE });
  let remaining = bytes;
  let first = true;
  while (remaining > 0 && !res.destroyed) {
    let piece = first ? `[${STREAM_CHUNK}` : STREAM_CHUNK;
    first = false;
    if (piece.length > remaining) piece = piece.slice(0, remaining);
    remaining -= piece.length;
    if (!res.write(piece)) await drainOrClose(res);
  }
}

function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
