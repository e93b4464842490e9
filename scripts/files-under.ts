/** The files under a folder, for the lint's own checks: hidden folders and build output left out. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage']);

export function* filesUnder(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name)) yield* filesUnder(path);
    } else if (entry.isFile()) {
      yield path;
    }
  }
}
