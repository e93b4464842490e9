/**
 * What the primary would otherwise do for the first time inside a fresh
 * group's first request, done while its first worker loads.
 *
 * Why: the primary answers every worker's calls to the machine's stores
 * (machine-stores.ts), and a fresh group's first request is the first time
 * it reads a worker's message, looks a key up, takes a lease, reserves a
 * call and writes the budget file, stores a record: V8 compiles each of
 * those functions on its first run, and each table sizes itself on its first
 * entry, all inside the waits of that request, one round trip after another.
 * The first worker takes about a second to load, and the primary has nothing
 * else to do meanwhile.
 *
 * So a throwaway set of the same stores, its budget file in a folder of its
 * own, answers one fresh key's first page as a worker's stores ask for it
 * (the worker's own classes over a stand-in of node:cluster's channel,
 * machine/loopback.ts). Nothing of it touches the machine's stores, their
 * budget file or their workers. Best effort: a failure only leaves the first
 * request as slow as it was.
 */
import { join } from 'node:path';
import type { CacheEntry } from '../cache/cache.js';
import { MachineCache } from '../cache/machine-cache.js';
import { MachineFlightLocks } from '../coordination/machine-flight-locks.js';
import { MachineKeyRegistry } from '../coordination/machine-key-registry.js';
import { MachineBudgetLedger } from '../economy/machine-ledger.js';
import { MachinePopularity } from '../economy/machine-popularity.js';
import { loopback } from '../machine/loopback.js';
import { PrimaryLink } from '../machine/primary-link.js';
import { hostStores } from '../machine/store-host.js';
import { removeQuietly, temporaryFolder } from '../temporary-folder.js';
import type { GatewayConfig } from './gateway-config.js';
import { ANNOUNCED, machineStoreSet } from './machine-stores.js';

const KEY_ID = 'machine warm-up';
/** A page's second wave: the records it reads at once, each under its own lease. */
const PAGE_READS = ['songs', 'history', 'milestones'].map((part) => `/warm-up/${part}`);

/** Runs the warm-up; resolves whether the page ran through, never rejects. */
export async function warmMachineStores(config: GatewayConfig): Promise<boolean> {
  const folder = temporaryFolder('gateway-machine-warm-up-');
  if (folder === undefined) return false;
  let close: (() => Promise<void>) | undefined;
  try {
    const made = machineStoreSet({
      ...config,
      scaleOut: { ...config.scaleOut, budgetFile: join(folder, 'budget.json') },
    });
    close = made.close;
    const { workers, channel } = loopback();
    hostStores(made.stores, workers, ANNOUNCED);
    await firstPage(new PrimaryLink(channel));
    return true;
  } catch {
    // Best effort: the first request warms what this did not.
    return false;
  } finally {
    await close?.().catch(() => undefined);
    removeQuietly(folder);
  }
}

/** A fresh client key's first page, in the order a worker's reads ask for it. */
async function firstPage(link: PrimaryLink): Promise<void> {
  const keys = new MachineKeyRegistry(link);
  const locks = new MachineFlightLocks(link);
  const budget = new MachineBudgetLedger(link);
  const cache = new MachineCache(link, 'cache', {
    announced: { maxKeys: PAGE_READS.length + 1, beyond: 'ask-for-every-key' },
  });
  const answers = new MachineCache(link, 'answers', {
    announced: { maxKeys: 1, beyond: 'forget-oldest' },
  });
  const popularity = new MachinePopularity(link);
  // The key is checked, proven under its lease by the page's first read, and accepted.
  await Promise.all([keys.status(KEY_ID), keys.wasAccepted(KEY_ID)]);
  const proof = await locks.acquire(`key-proof ${KEY_ID}`);
  await keys.status(KEY_ID);
  await budget.reserve({ keyId: KEY_ID });
  await cache.set('/warm-up/artist', record());
  await keys.markAccepted(KEY_ID);
  await proof?.release();
  // The reads the first record leads to, at once.
  await Promise.all(
    PAGE_READS.map(async (path) => {
      const lease = await locks.acquire(path);
      await budget.reserve({ keyId: KEY_ID });
      await cache.set(path, record());
      await lease?.release();
    }),
  );
  popularity.record(PAGE_READS, true);
  await budget.usage(KEY_ID);
  await answers.set('warm-up answer', record());
  await Promise.all(PAGE_READS.map((path) => cache.get(path)));
  await popularity.close();
}

/** An entry shaped as a read record's: a day-by-day history, a few kilobytes of JSON. */
function record(): CacheEntry {
  const now = Date.now();
  const history = Array.from({ length: 90 }, (_, day) => ({
    date: new Date(now - day * 86_400_000).toISOString().slice(0, 10),
    dailyStreams: 150_000 + day,
  }));
  return {
    outcome: 'value',
    value: { slug: 'warm-up', history },
    bytes: 4_000,
    storedAt: now,
    freshUntil: now + 60_000,
    staleUntil: now + 120_000,
  };
}
