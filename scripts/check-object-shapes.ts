/**
 * The project's own rule on object shapes, run by `npm run lint`: in code that
 * builds records or answers requests, an object literal that begins with a
 * spread and then adds members of its own (`{ ...record, unreadable }`) fails
 * with its place. V8, as Node 20 ships it, gives every object made that way a
 * hidden class of its own, so each place that reads such objects misses its
 * inline cache on every read and looks the property up the slow way; records
 * held for many requests also each keep their own class in memory.
 * `Object.assign({}, record, { unreadable })`, or members before the spread,
 * make objects of one class. Keys that come from a client stay out of
 * `Object.assign`, whose target's `__proto__` setter they could reach: such an
 * object is copied by rest destructuring instead.
 *
 * Code that runs once at start (the composition root, the process's start
 * and its warm-up, a Redis client's options) and the simulator, which stands in for the remote upstream, are
 * not checked: their objects are read a few times, not per request.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { filesUnder } from './files-under.js';
import { spreadsThenAdds } from './object-shapes.js';

const ROOT = new URL('..', import.meta.url).pathname;
const UNCHECKED = [
  'src/simulator/',
  'src/gateway/',
  'src/serve.ts',
  'src/warm-up.ts',
  'src/redis/cluster-client.ts',
];
const CHECKED_ANYWAY = ['src/gateway/request-context.ts'];

const checked = (file: string) =>
  CHECKED_ANYWAY.includes(file) || !UNCHECKED.some((prefix) => file.startsWith(prefix));

const found: string[] = [];
for (const path of filesUnder(join(ROOT, 'src'))) {
  const file = relative(ROOT, path);
  if (!file.endsWith('.ts') || !checked(file)) continue;
  for (const line of spreadsThenAdds(file, readFileSync(path, 'utf8')))
    found.push(`${file}:${line}`);
}

if (found.length > 0) {
  console.error(
    `Object literals that spread an object first and then add members (each object they make gets a hidden class of its own; use Object.assign({}, base, { … }), see scripts/check-object-shapes.ts):\n${found.map((place) => `  ${place}`).join('\n')}`,
  );
  process.exit(1);
}
console.log('✔ no object literal spreads an object first and then adds members');
