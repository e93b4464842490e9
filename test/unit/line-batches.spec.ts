import { describe, expect, it } from 'vitest';
import { LineBatches, linesIn } from '../../src/line-batches.js';

const sink = () => {
  const writes: string[] = [];
  return { writes, write: (batch: string) => writes.push(batch) };
};

describe('LineBatches', () => {
  it('hands lines over in order, in one write once a batch is full', () => {
    const out = sink();
    const batches = new LineBatches(out, 10);
    batches.write('abc\n');
    batches.write('def\n');
    expect(out.writes).toEqual([]);
    batches.write('ghi\n');
    expect(out.writes).toEqual(['abc\ndef\nghi\n']);
    batches.write('j\n');
    expect(out.writes).toHaveLength(1);
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
    expect(() => new LineBatches(sink(), 0)).toThrow(/batchChars/);
    expect(() => new LineBatches(sink(), 1.5)).toThrow(/batchChars/);
  });

  it('counts the lines of a dropped batch', () => {
    expect(linesIn('a\nb\nc\n')).toBe(3);
    expect(linesIn('')).toBe(0);
    expect(linesIn(Buffer.from('x\n'))).toBe(1);
  });
});
