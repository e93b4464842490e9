/** `npm run simulate` options: parsed from argv, validated with messages that name the option and the value. */
import { SHAPES, type Shape } from './traffic.js';

export type ViewKind = 'home' | 'artist' | 'chart' | 'milestones';
export const VIEW_KINDS: readonly ViewKind[] = ['home', 'artist', 'chart', 'milestones'];

export interface SimulationOptions {
  /** Artists of the simulated upstream (at most 20,000, its real scale). */
  readonly artists: number;
  /** Page views per simulated day. */
  readonly views: number;
  readonly days: number;
  /** Gateways sharing one Redis, views spread round-robin. */
  readonly replicas: number;
  /** The upstream's daily limit per key, and the gateway's UPSTREAM_DAILY_LIMIT. */
  readonly limit: number;
  readonly seed: number;
  readonly pollMinutes: number;
  /** Shares of the views by kind, summing to 1. */
  readonly mix: Readonly<Record<ViewKind, number>>;
  /** Views under way at once (in timestamp order). */
  readonly concurrency: number;
  readonly redisUrl: string;
  /** The simulated upstream refreshes its data daily at this UTC hour. */
  readonly refreshHourUtc: number;
  /** In one process with a calendar advanced view by view, or as separate processes over HTTP (deployment.ts). */
  readonly mode: Mode;
  /** Deployment mode: how many times faster than real time the calendar runs. */
  readonly speed: number;
  /** When in the day the views come, and whether a crawler walks the long tail (traffic.ts). */
  readonly shape: Shape;
}

export type Mode = 'in-process' | 'deployment';
const MODES: readonly Mode[] = ['in-process', 'deployment'];

export const DEFAULTS: SimulationOptions = {
  artists: 20_000,
  views: 10_000,
  days: 4,
  replicas: 3,
  limit: 1_000,
  seed: 20_261_121,
  pollMinutes: 60,
  mix: { home: 0.3, artist: 0.5, chart: 0.1, milestones: 0.1 },
  concurrency: 8,
  redisUrl: 'redis://127.0.0.1:6379',
  refreshHourUtc: 3,
  mode: 'in-process',
  speed: 960,
  shape: 'evening',
};

export class OptionsError extends Error {
  override readonly name = 'OptionsError';
}

const INTEGER_OPTIONS = {
  '--artists': ['artists', 1, 20_000],
  '--views': ['views', 1, 1_000_000],
  '--days': ['days', 1, 60],
  '--replicas': ['replicas', 1, 32],
  '--limit': ['limit', 1, 10_000_000],
  '--seed': ['seed', 0, 2 ** 32 - 1],
  '--poll-minutes': ['pollMinutes', 1, 1_440],
  '--concurrency': ['concurrency', 1, 256],
  '--speed': ['speed', 1, 10_000],
} as const;

export const USAGE = `Usage: npm run simulate -- [options]
  --artists N        artists of the simulated upstream (1-20000, default ${DEFAULTS.artists})
  --views N          page views per simulated day (default ${DEFAULTS.views})
  --days N           simulated days (default ${DEFAULTS.days})
  --replicas N       gateways sharing one Redis (default ${DEFAULTS.replicas})
  --limit N          upstream calls per UTC day, the key's limit (default ${DEFAULTS.limit})
  --seed N           seed of the catalogue and the traffic (default ${DEFAULTS.seed})
  --poll-minutes N   refresh poll interval in simulated minutes (default ${DEFAULTS.pollMinutes})
  --mix H,A,C,M      shares of home, artist, chart and milestone views (default 30,50,10,10)
  --concurrency N    views under way at once (default ${DEFAULTS.concurrency}; in-process mode)
  --mode M           in-process (one process, the calendar advanced view by view) or deployment
                     (the replicas as separate processes over HTTP, each view sent when its time
                     comes, the calendar running --speed times real time) (default ${DEFAULTS.mode})
  --shape S          ${SHAPES.join(', ')}: when the views come, and a crawler walking the long tail
                     (default ${DEFAULTS.shape})
  --speed N          deployment mode: the calendar's speed-up over real time (default ${DEFAULTS.speed})
Environment: REDIS_URL (default ${DEFAULTS.redisUrl}); other gateway variables apply as in npm start.`;

/**
 * The options of `npm run <command>` from argv; undefined when it printed its usage (`--help`)
 * or a bad option's message with the usage (exit code 2).
 */
export function optionsOrUsage(
  argv: readonly string[],
  command: string,
): SimulationOptions | undefined {
  const usage = USAGE.replace('npm run simulate', `npm run ${command}`);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage);
    return undefined;
  }
  try {
    return parseOptions(argv);
  } catch (error) {
    if (!(error instanceof OptionsError)) throw error;
    console.error(`${command}: ${error.message}\n\n${usage}`);
    process.exitCode = 2;
    return undefined;
  }
}

export function parseOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): SimulationOptions {
  const values: Record<string, unknown> = { ...DEFAULTS };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const [name, inline] = arg.includes('=') ? arg.split('=', 2) : [arg, undefined];
    if (
      name === undefined ||
      (!(name in INTEGER_OPTIONS) && !['--mix', '--mode', '--shape'].includes(name))
    )
      throw new OptionsError(`unknown option: ${arg}`);
    const raw = inline ?? argv[++i];
    if (raw === undefined || raw === '') throw new OptionsError(`${name} needs a value`);
    if (name === '--mix') {
      values.mix = parseMix(raw);
      continue;
    }
    if (name === '--shape') {
      if (!SHAPES.includes(raw as Shape))
        throw new OptionsError(`--shape must be one of ${SHAPES.join(', ')}: ${raw}`);
      values.shape = raw;
      continue;
    }
    if (name === '--mode') {
      if (!MODES.includes(raw as Mode))
        throw new OptionsError(`--mode must be one of ${MODES.join(', ')}: ${raw}`);
      values.mode = raw;
      continue;
    }
    const [key, min, max] = INTEGER_OPTIONS[name as keyof typeof INTEGER_OPTIONS];
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max)
      throw new OptionsError(`${name} must be a whole number from ${min} to ${max}: ${raw}`);
    values[key] = value;
  }
  const redisUrl = env.REDIS_URL?.trim();
  if (redisUrl !== undefined && redisUrl !== '') {
    if (!/^rediss?:\/\//.test(redisUrl))
      throw new OptionsError(`REDIS_URL must be a redis:// or rediss:// URL: ${redisUrl}`);
    values.redisUrl = redisUrl;
  }
  return values as unknown as SimulationOptions;
}

/** Four non-negative numbers (percentages or fractions), not all zero, scaled to sum to 1. */
export function parseMix(raw: string): Record<ViewKind, number> {
  const parts = raw.split(',').map((part) => part.trim());
  const numbers = parts.map(Number);
  if (parts.length !== VIEW_KINDS.length || numbers.some((n, i) => parts[i] === '' || !(n >= 0)))
    throw new OptionsError(
      `--mix must be four non-negative numbers (home,artist,chart,milestones), e.g. 30,50,10,10: ${raw}`,
    );
  const sum = numbers.reduce((a, b) => a + b, 0);
  if (!(sum > 0) || !Number.isFinite(sum))
    throw new OptionsError(`--mix must not be all zero: ${raw}`);
  return Object.fromEntries(VIEW_KINDS.map((kind, i) => [kind, (numbers[i] ?? 0) / sum])) as Record<
    ViewKind,
    number
  >;
}
