/**
 * The budget file's two slots: written in place in turn, each whole or
 * detectably not, so that start reads the newest whole count, a crash in the
 * middle of a write loses nothing that left, and a file from before the slots
 * is still read.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { BudgetFile, NotABudgetFile } from '../../src/economy/budget-file.js';
import { MemoryBudgetLedger } from '../../src/economy/memory-ledger.js';
import { todayAtUtc } from '../support/calendar.js';

const folder = mkdtempSync(join(tmpdir(), 'budget-file-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let files = 0;
const freshPath = () => join(folder, `case-${++files}`, 'budget.json');

it('writes the two slots in turn, and a new reader takes the newest', () => {
  const path = freshPath();
  expect(new BudgetFile(path).read()).toBeUndefined();
  const file = new BudgetFile(path);
  file.write('{"n":1}');
  file.write('{"n":2}');
  file.write('{"n":3}');
  expect(readFileSync(path, 'utf8')).toMatch(/\n\{"n":3\}$/);
  expect(readFileSync(`${path}.1`, 'utf8')).toMatch(/\n\{"n":2\}$/);
  expect(new BudgetFile(path).read()).toBe('{"n":3}');
  // A shorter count leaves nothing of the longer one behind it.
  const again = new BudgetFile(path);
  again.write('{}');
  expect(readFileSync(`${path}.1`, 'utf8')).toMatch(/\n\{\}$/);
  expect(new BudgetFile(path).read()).toBe('{}');
});

it('a slot torn by a crash is passed over, and written next', () => {
  const path = freshPath();
  const file = new BudgetFile(path);
  file.write('{"n":1}');
  file.write('{"n":2}');
  // The write of n=2 stopped halfway (its slot, `.1`, holds a header and part of the counts).
  const torn = readFileSync(`${path}.1`);
  writeFileSync(`${path}.1`, torn.subarray(0, torn.length - 3));
  expect(new BudgetFile(path).read()).toBe('{"n":1}');
  // A bit flipped within: the checksum says so.
  writeFileSync(`${path}.1`, Buffer.from(torn.toString().replace('"n":2', '"n":7')));
  const restarted = new BudgetFile(path);
  expect(restarted.read()).toBe('{"n":1}');
  restarted.write('{"n":3}');
  expect(readFileSync(path, 'utf8')).toMatch(/\n\{"n":1\}$/);
  expect(new BudgetFile(path).read()).toBe('{"n":3}');
});

it('reads a file written before the slots, and keeps it until a newer count is whole beside it', () => {
  const path = freshPath();
  mkdirSync(dirname(path), { recursive: true });
  const before = JSON.stringify({ day: '2026-11-24', keys: { key: { used: 4 } }, clients: {} });
  writeFileSync(path, before);
  const file = new BudgetFile(path);
  expect(file.read()).toBe(before);
  file.write('{"newer":true}');
  expect(readFileSync(path, 'utf8')).toBe(before);
  expect(new BudgetFile(path).read()).toBe('{"newer":true}');
});

it('refuses a file that is not a budget file, and the ledger says which setting to look at', () => {
  const path = freshPath();
  new BudgetFile(path).write('{}');
  writeFileSync(path, 'not a budget file');
  writeFileSync(`${path}.1`, 'nor this');
  expect(() => new BudgetFile(path).read()).toThrow(NotABudgetFile);
  expect(() => new MemoryBudgetLedger({ dailyLimit: 10, clientShare: 1 }, path)).toThrow(
    /BUDGET_FILE: .* is not a budget file; move it away to start over/,
  );
});

it('a restarted ledger counts on from the newest whole slot', async () => {
  const path = freshPath();
  const options = { dailyLimit: 10, clientShare: 1, now: () => new Date(todayAtUtc(12)) };
  const first = new MemoryBudgetLedger(options, path);
  for (let call = 0; call < 3; call++) await first.reserve({ keyId: 'key' });
  // The third write (slot 0 again) was torn: that call never left, the two before it did.
  writeFileSync(path, readFileSync(path).subarray(0, 20));
  const second = new MemoryBudgetLedger(options, path);
  expect((await second.usage('key')).used).toBe(2);
  await second.reserve({ keyId: 'key' });
  expect((await new MemoryBudgetLedger(options, path).usage('key')).used).toBe(3);
});
