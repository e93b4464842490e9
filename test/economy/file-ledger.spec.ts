/**
 * The file ledger of a gateway without Redis: a call's count is on disk before its reservation
 * lets it leave, also when many are reserved at once and share one write, and a failed write
 * keeps every call of it from leaving.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { BudgetFile } from '../../src/economy/budget-file.js';
import { MemoryBudgetLedger } from '../../src/economy/memory-ledger.js';
import { todayAtUtc } from '../support/calendar.js';

const folder = mkdtempSync(join(tmpdir(), 'file-ledger-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const options = { dailyLimit: 100, clientShare: 1, now: () => new Date(todayAtUtc(12)) };
const usedOnDisk = (file: string): number =>
  (JSON.parse(new BudgetFile(file).read() ?? '{}') as { keys: Record<string, { used: number }> })
    .keys.key!.used;

it('has every call of a burst on disk before the first of them leaves', async () => {
  const file = join(folder, 'burst', 'budget.json');
  const ledger = new MemoryBudgetLedger(options, file);
  const seenOnDisk: number[] = [];
  await Promise.all(
    Array.from({ length: 20 }, () =>
      ledger.reserve({ keyId: 'key' }).then(() => seenOnDisk.push(usedOnDisk(file))),
    ),
  );
  expect(seenOnDisk).toEqual(Array(20).fill(20));
  // The next burst waits for its own write.
  await ledger.reserve({ keyId: 'key' });
  expect(usedOnDisk(file)).toBe(21);
  expect((await new MemoryBudgetLedger(options, file).usage('key')).used).toBe(21);
});

it('lets no call of a burst leave when its write fails', async () => {
  const parent = join(folder, 'replaced');
  const ledger = new MemoryBudgetLedger(options, join(parent, 'budget.json'));
  // Its folder is now a file: the write cannot happen (root may write anywhere, so no chmod).
  writeFileSync(parent, 'not a folder');
  const outcomes = await Promise.allSettled(
    Array.from({ length: 5 }, () => ledger.reserve({ keyId: 'key' })),
  );
  expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(5).fill('rejected'));
});
