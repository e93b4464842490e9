/**
 * A warm-up's temporary folder, made and removed best effort: without one the warm-up is
 * skipped (a read-only /tmp), and a folder left behind costs nothing, where a throw would stop
 * the start the warm-up only helps.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new folder in the system's temporary directory, named from `prefix`; undefined when none can be made. */
export function temporaryFolder(prefix: string): string | undefined {
  try {
    return mkdtempSync(join(tmpdir(), prefix));
  } catch {
    return undefined;
  }
}

export function removeQuietly(folder: string): void {
  try {
    rmSync(folder, { recursive: true, force: true });
  } catch {
    // Left for the system's own cleaning of its temporary directory.
  }
}
