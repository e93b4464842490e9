/** Simulator options, their defaults, and their validation (bad values throw with the value in the message). */

export interface SimulatorOptions {
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /**
   * A Unix socket to listen on instead of a TCP port (`port` and `host` then unused): a
   * simulator inside a process that must not take a port of the machine, even for a moment.
   */
  socketPath?: string;
  /** Default 20261121. */
  seed?: number;
  /** Number of generated artists; default 300, at most 20,000 (the upstream's scale). */
  artists?: number;
  /** YYYY-MM-DD of the latest snapshot; default: today's UTC date by the `now` clock. */
  dataDate?: string;
  /**
   * How long every answer takes from its request's arrival, the simulator's
   * own work included (as a real upstream's server time would); default 0.
   */
  latencyMs?: number;
  /**
   * How long a new connection takes before it can carry a request, as TCP and
   * TLS handshakes take over a real network (a round trip each; on loopback,
   * nothing): the first answer on a connection comes no sooner than this after
   * the connection opened, plus the latency. Default 0.
   */
  handshakeMs?: number;
  /** Default ['demo-key']. */
  apiKeys?: string[];
  /** Keys that are refused even when listed in apiKeys; default []. */
  revokedKeys?: string[];
  /** Requests per key per UTC day; default 1000. */
  dailyLimit?: number;
  /** Clock for the daily budget (and the default dataDate). */
  now?: () => Date;
  /**
   * Serve the real upstream's roughness: records lacking optional fields, chart
   * entries naming songs outside the catalogue, repeated song titles, milestone
   * ids out of time order. Default false (the tidy shapes of upstream-api.md Part 2).
   */
  roughness?: boolean;
  /**
   * The upstream's daily refresh, by the `now` clock: the data day follows the
   * clock, and before this hour (UTC, 0-23) it is the previous day. Each
   * refresh adds a day of streams and new recent milestones. Default: none
   * (the data stays at `dataDate`).
   */
  refreshHourUtc?: number;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_SEED = 20261121;
export const DEFAULT_ARTISTS = 300;
export const MAX_ARTISTS = 20_000;
export const DEFAULT_API_KEYS: readonly string[] = ['demo-key'];
export const DEFAULT_DAILY_LIMIT = 1000;
const MAX_PORT = 65_535;

export type ResolvedOptions = Required<
  Omit<SimulatorOptions, 'dataDate' | 'refreshHourUtc' | 'socketPath'>
> & {
  dataDate: string | undefined;
  refreshHourUtc: number | undefined;
  socketPath: string | undefined;
};

export function resolveOptions(options: SimulatorOptions): ResolvedOptions {
  const resolved: ResolvedOptions = {
    port: options.port ?? 0,
    host: options.host ?? DEFAULT_HOST,
    socketPath: options.socketPath,
    seed: options.seed ?? DEFAULT_SEED,
    artists: options.artists ?? DEFAULT_ARTISTS,
    dataDate: options.dataDate,
    latencyMs: options.latencyMs ?? 0,
    handshakeMs: options.handshakeMs ?? 0,
    apiKeys: options.apiKeys ?? [...DEFAULT_API_KEYS],
    revokedKeys: options.revokedKeys ?? [],
    dailyLimit: options.dailyLimit ?? DEFAULT_DAILY_LIMIT,
    now: options.now ?? (() => new Date()),
    roughness: options.roughness ?? false,
    refreshHourUtc: options.refreshHourUtc,
  };
  if (resolved.refreshHourUtc !== undefined)
    requireInteger('refreshHourUtc', resolved.refreshHourUtc, 0, 23);
  requireInteger('port', resolved.port, 0, MAX_PORT);
  if (resolved.socketPath !== undefined && resolved.socketPath.length === 0)
    throw new Error('socketPath must be a path when given: ""');
  requireInteger('seed', resolved.seed, -(2 ** 31), 2 ** 32 - 1);
  requireInteger('artists', resolved.artists, 1, MAX_ARTISTS);
  requireLatency(resolved.latencyMs);
  requireInteger('handshakeMs', resolved.handshakeMs, 0, 600_000);
  requireInteger('dailyLimit', resolved.dailyLimit, 0, Number.MAX_SAFE_INTEGER);
  if (typeof resolved.roughness !== 'boolean') {
    throw new Error(`roughness must be true or false: ${JSON.stringify(resolved.roughness)}`);
  }
  if (resolved.apiKeys.some((key) => !/^\S+$/.test(key))) {
    throw new Error(
      `apiKeys must be non-empty strings without spaces: ${JSON.stringify(resolved.apiKeys)}`,
    );
  }
  return resolved;
}

export function requireLatency(ms: number): void {
  if (!Number.isFinite(ms) || ms < 0)
    throw new Error(`latencyMs must be a non-negative number: ${ms}`);
}

function requireInteger(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max}: ${value}`);
  }
}
