/**
 * The project's own size limits, run by `npm run lint`: a file of `src/` over
 * 400 lines, or a README.md over 300, fails with its name and count. A long
 * module usually holds two concepts, and a long README buries what a newcomer
 * needs; when a file grows past its limit, split it where a concept with its
 * own name and state begins, or move detail to docs/.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { filesUnder } from './files-under.js';

const ROOT = new URL('..', import.meta.url).pathname;
const MAX_SOURCE_LINES = 400;
const MAX_README_LINES = 300;
/** Lines as `wc -l` and an editor count them: a final newline ends a line, it does not start one. */
function lineCount(path: string): number {
  const text = readFileSync(path, 'utf8');
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

const overLimit: string[] = [];
const check = (path: string, limit: number) => {
  const lines = lineCount(path);
  if (lines > limit) overLimit.push(`${relative(ROOT, path)}: ${lines} lines (limit ${limit})`);
};

for (const path of filesUnder(join(ROOT, 'src'))) check(path, MAX_SOURCE_LINES);
for (const path of filesUnder(ROOT)) {
  if (path.endsWith('/README.md')) check(path, MAX_README_LINES);
}

if (overLimit.length > 0) {
  console.error(`Files over the project's limits:\n${overLimit.map((l) => `  ${l}`).join('\n')}`);
  process.exit(1);
}
console.log(
  `✔ src/ files within ${MAX_SOURCE_LINES} lines, README.md files within ${MAX_README_LINES}`,
);
