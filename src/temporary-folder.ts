/**
 * Removing a warm-up's temporary folder once it is done with, best effort: a folder left in
 * the system's temporary directory costs nothing, where a throw would stop the start it helps.
 */
import { rmSync } from 'node:fs';

export function removeQuietly(folder: string): void {
  try {
    rmSync(folder, { recursive: true, force: true });
  } catch {
    // Left for the system's own cleaning of its temporary directory.
  }
}
