/**
 * A cluster's primary passes its workers' output on whole lines at a time: a pipe's chunks end
 * anywhere, and two workers' chunks arrive in any order (worker-output.ts).
 */
import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { workerOutputRelay } from '../../src/worker-output.js';

function fakeWorker() {
  return { stdout: new PassThrough(), stderr: new PassThrough() };
}

it('passes each worker’s lines on whole, however the chunks of two workers interleave', async () => {
  const written: string[] = [];
  const relay = workerOutputRelay({ writeLines: (lines) => written.push(lines.toString()) });
  const [a, b] = [fakeWorker(), fakeWorker()];
  const relayed = [relay(a), relay(b)];
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  a.stdout.write('{"from":"a","n":1}\n{"from":"a",');
  await turn();
  b.stdout.write('{"from":"b","n":1}\n{"from"');
  await turn();
  a.stdout.write('"n":2}\n');
  await turn();
  b.stdout.write(':"b","n":2}\n{"from":"b","n":3}');
  b.stdout.end();
  a.stdout.end();
  a.stderr.end();
  b.stderr.end();
  await Promise.all(relayed);

  const lines = written.join('').split('\n').filter(Boolean);
  expect(written.every((lines) => lines.endsWith('\n'))).toBe(true);
  expect(lines.map((line) => JSON.parse(line))).toEqual([
    { from: 'a', n: 1 },
    { from: 'b', n: 1 },
    { from: 'a', n: 2 },
    { from: 'b', n: 2 },
    // A worker's last line without its newline, at the end of its output, still arrives.
    { from: 'b', n: 3 },
  ]);
});

it('passes on a line that never ends once it is a mebibyte long, so nothing grows without bound', async () => {
  const written: string[] = [];
  const relay = workerOutputRelay({ writeLines: (lines) => written.push(lines.toString()) });
  const worker = fakeWorker();
  const relayed = relay(worker);
  const piece = 'x'.repeat(64 * 1024);
  for (let i = 0; i < 16; i += 1) worker.stdout.write(piece);
  await new Promise((resolve) => setImmediate(resolve));
  expect(written).toEqual([`${piece.repeat(16)}\n`]);
  worker.stdout.end();
  worker.stderr.end();
  await relayed;
});

it('passes on a character split between two chunks as it was written', async () => {
  const written: Buffer[] = [];
  const relay = workerOutputRelay({ writeLines: (lines) => written.push(Buffer.from(lines)) });
  const worker = fakeWorker();
  const relayed = relay(worker);
  const line = Buffer.from('{"artist":"Bùrna Bôy µ"}\n');
  const cut = line.indexOf(Buffer.from('ù')) + 1;
  worker.stdout.write(line.subarray(0, cut));
  await new Promise((resolve) => setImmediate(resolve));
  worker.stdout.write(line.subarray(cut));
  worker.stdout.end();
  worker.stderr.end();
  await relayed;
  expect(Buffer.concat(written).toString()).toBe('{"artist":"Bùrna Bôy µ"}\n');
});
