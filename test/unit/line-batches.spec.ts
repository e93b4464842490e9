import { describe, expect, it } from 'vitest';
import { LineBatches, linesIn } from '../../src/line-batches.js';

const sink = () => {
  const writes: string[] = [];
  return { writes, write: (batch: Buffer) => writes.push(batch.toString('utf8')) };
};

describe('LineBatches', () => {
  it('hands lines over in order, in one write once the next would not fit', () => {
    const out = sink();
    const batches = new LineBatches(out, 10);
    batches.write('abc\n');
    batches.write('def\n');
    expect(out.writes).toEqual([]);
    batches.write('ghi\n');
    expect(out.writes).toEqual(['abc\ndef\n']);
    batches.write('jk\n');
    expect(out.writes).toHaveLength(1);
    batches.flush();
    expect(out.writes).toEqual(['abc\ndef\n', 'ghi\njk\n']);
  });

  it('counts bytes, not characters: a line of many-byte characters fills its batch sooner', () => {
    const out = sink();
    const batches = new LineBatches(out, 12);
    batches.write('µµµ\n');
    batches.write('ééé\n');
    expect(out.writes).toEqual(['µµµ\n']);
    batches.flush();
    expect(out.writes).toEqual(['µµµ\n', 'ééé\n']);
  });

  it('writes a line longer than a batch on its own, after the lines before it', () => {
    const out = sink();
    const batches = new LineBatches(out, 8);
    batches.write('a\n');
    batches.write('a line longer than eight bytes\n');
    batches.write('b\n');
    batches.flush();
    expect(out.writes).toEqual(['a\n', 'a line longer than eight bytes\n', 'b\n']);
  });

  it('hands over what it gathered when flushed, and nothing when it has nothing', () => {
    const out = sink();
    const batches = new LineBatches(out, 1024);
    batches.flush();
    batches.write('one\n');
    batches.flush();
    batches.flush();
    expect(out.writes).toEqual(['one\n']);
  });

  it('never hands over bytes it writes again: each batch keeps what it held', () => {
    const seen: Buffer[] = [];
    const batches = new LineBatches({ write: (batch: Buffer) => seen.push(batch) }, 16);
    batches.write('first\n');
    batches.write('second\n');
    // A full batch goes as it is; a small one, flushed early, as a copy of its own.
    batches.write('third\n');
    batches.flush();
    batches.write('y\n');
    batches.flush();
    batches.write('zz\n');
    batches.flush();
    expect(seen.map((batch) => batch.toString())).toEqual([
      'first\nsecond\n',
      'third\n',
      'y\n',
      'zz\n',
    ]);
  });

  it('takes lines already encoded in order with the others, a long run of them on its own', () => {
    const out = sink();
    const batches = new LineBatches(out, 16);
    batches.write('one\n');
    batches.writeBytes(Buffer.from('two\nthree\n'));
    batches.writeBytes(Buffer.from('four\n'));
    batches.writeBytes(Buffer.from('a run longer than a batch\n'));
    batches.write('five\n');
    batches.flush();
    expect(out.writes).toEqual([
      'one\ntwo\nthree\n',
      'four\n',
      'a run longer than a batch\n',
      'five\n',
    ]);
  });

  it('forgets the lines it gathered when discarded', () => {
    const out = sink();
    const batches = new LineBatches(out, 1024);
    batches.write('lost\n');
    batches.discard();
    batches.write('kept\n');
    batches.flush();
    expect(out.writes).toEqual(['kept\n']);
  });

  it('refuses a batch size that is not a positive integer', () => {
    expect(() => new LineBatches(sink(), 0)).toThrow(/batchBytes/);
    expect(() => new LineBatches(sink(), 1.5)).toThrow(/batchBytes/);
  });

  it('counts the lines of a dropped batch', () => {
    expect(linesIn('a\nb\nc\n')).toBe(3);
    expect(linesIn('')).toBe(0);
    expect(linesIn(Buffer.from('x\n'))).toBe(1);
    expect(linesIn(Buffer.from('µ\nµ\n'))).toBe(2);
  });
});
