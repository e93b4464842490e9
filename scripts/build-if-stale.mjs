/**
 * `npm start`'s build step: `tsc -b tsconfig.build.json` only when a source or a tsconfig is
 * newer than the last build that succeeded. Even with nothing to do, tsc takes over a second to
 * load and to check every file; this looks at modification times only.
 *
 * The stamp (dist/.build-stamp) is written after a build that succeeded, dated when its check
 * began: a file saved during the build is newer, and builds the next time. A failed build leaves
 * the stamp as it was, so the next start builds (and fails) again rather than run what it emitted.
 * `--always` builds whatever the times (`npm run build`), and stamps as well.
 *
 * Plain JavaScript, run by node itself: it must work before anything is compiled.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const STAMP = join(ROOT, 'dist', '.build-stamp');
/** What the build reads besides src/: its configuration and the installed packages' lock. */
const INPUTS = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

/** The newest modification time under `path` (a folder's own counts too: a file removed). */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const checkedAt = new Date();
const always = process.argv.includes('--always');
const inputs = Math.max(
  newest(join(ROOT, 'src')),
  ...INPUTS.map((name) => newest(join(ROOT, name))),
);
const built = statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs ?? -1;

if (always || built < inputs) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const { status, signal } = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (status !== 0) process.exit(status ?? (signal === null ? 1 : 128));
  closeSync(openSync(STAMP, 'a'));
  utimesSync(STAMP, checkedAt, checkedAt);
}
