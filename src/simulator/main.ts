/** Runs the simulator standalone, configured from SIMULATOR_* environment variables. */
import { startSimulator } from './index.js';
import type { SimulatorOptions } from './options.js';

const DEFAULT_PORT = 4010;

function integerEnv(name: string, min: number, max: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function listEnv(name: string): string[] | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const items = raw.split(',').map((item) => item.trim());
  if (items.some((item) => !/^\S+$/.test(item))) {
    throw new Error(
      `${name} must be a comma-separated list of non-empty keys without spaces, got "${raw}"`,
    );
  }
  return items;
}

function booleanEnv(name: string): boolean | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

function readOptions(): SimulatorOptions {
  const host = process.env.SIMULATOR_HOST;
  return {
    port: integerEnv('SIMULATOR_PORT', 0, 65_535) ?? DEFAULT_PORT,
    host: host === undefined || host.trim() === '' ? undefined : host.trim(),
    seed: integerEnv('SIMULATOR_SEED', 0, 2 ** 32 - 1),
    artists: integerEnv('SIMULATOR_ARTISTS', 1, 20_000),
    latencyMs: integerEnv('SIMULATOR_LATENCY_MS', 0, 600_000),
    handshakeMs: integerEnv('SIMULATOR_HANDSHAKE_MS', 0, 600_000),
    apiKeys: listEnv('SIMULATOR_API_KEYS'),
    dailyLimit: integerEnv('SIMULATOR_DAILY_LIMIT', 0, Number.MAX_SAFE_INTEGER),
    roughness: booleanEnv('SIMULATOR_ROUGHNESS'),
  };
}

async function main(): Promise<void> {
  let options: SimulatorOptions;
  try {
    options = readOptions();
  } catch (error) {
    console.error(`simulator: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  const simulator = await startSimulator(options);
  console.log(`Music stats upstream simulator listening on ${simulator.url}/api/v1`);
  console.log(
    `  data date ${simulator.data.dataDate}, ${simulator.data.artistCount} artists, ${simulator.data.songCount} songs`,
  );
  console.log(`  API keys: ${(options.apiKeys ?? ['demo-key']).join(', ')}`);
  if (options.roughness === true)
    console.log(
      '  roughness on: gaps, unlisted chart songs, repeated titles, unordered milestone ids',
    );
  const shutdown = (signal: string): void => {
    console.log(`simulator: ${signal}, closing`);
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('simulator: failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
