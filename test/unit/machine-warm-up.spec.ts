/**
 * The primary's warm-up (gateway/machine-warm-up.ts) runs a fresh key's first page through a
 * throwaway set of the machine's stores: the page must run through (a store method renamed or
 * a reply reshaped would otherwise leave the first request cold without a word), and nothing of
 * it may reach the machine's own budget file or stay behind on disk. Neither warm-up may stop a
 * start: without a temporary folder they give up, they do not throw.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { warmMachineStores } from '../../src/gateway/machine-warm-up.js';
import { warmUp } from '../../src/warm-up.js';

const folders: string[] = [];
const temporaryDirectory = process.env.TMPDIR;
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  if (temporaryDirectory === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = temporaryDirectory;
});

const warmUpFolders = () =>
  readdirSync(tmpdir()).filter((name) => name.startsWith('gateway-machine-warm-up-'));

it('runs a first page through throwaway stores, and leaves the machine budget file untouched', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'machine-warm-up-spec-'));
  folders.push(folder);
  const budgetFile = join(folder, 'budget.json');
  const config = loadConfig({ WORKERS: '2', BUDGET_FILE: budgetFile });
  const before = new Set(warmUpFolders());

  expect(await warmMachineStores(config)).toBe(true);

  expect(existsSync(budgetFile)).toBe(false);
  expect(warmUpFolders().filter((name) => !before.has(name))).toEqual([]);
});

it('gives up, without throwing, when no temporary folder can be made', async () => {
  const config = loadConfig({ WORKERS: '2' });
  // Under a file, not a folder: mkdtemp fails (ENOTDIR), as on a read-only /tmp.
  process.env.TMPDIR = '/dev/null/unusable';
  expect(await warmMachineStores(config)).toBe(false);
  await expect(warmUp(config, 'pass-through')).resolves.toBe(false);
});
