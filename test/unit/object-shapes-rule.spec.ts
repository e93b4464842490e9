/**
 * The lint's rule on object shapes (scripts/object-shapes.ts): a literal that begins with a
 * spread and adds members of its own is named by its line; the forms that make objects of one
 * hidden class are not.
 */
import { describe, expect, it } from 'vitest';
import { spreadsThenAdds } from '../../scripts/object-shapes.js';

const linesOf = (text: string) => spreadsThenAdds('example.ts', text);

describe('the object shapes rule', () => {
  it('names a literal that spreads first and then adds a member, at its line', () => {
    expect(linesOf('const a = { ...b, c: 1 };')).toEqual([1]);
    expect(linesOf('const a = 1;\nconst d = {\n  ...b,\n  c,\n};')).toEqual([2]);
    expect(linesOf('f({ ...b, ...c, d() { return 1; } });')).toEqual([1]);
  });

  it('names a nested literal on its own line', () => {
    expect(linesOf('const a = Object.assign({}, b, {\n  c: { ...d, e: 1 },\n});')).toEqual([2]);
    expect(linesOf('const a = { ...b, c: { ...d, e: 1 } };')).toEqual([1, 1]);
  });

  it('leaves alone the forms that make objects of one class', () => {
    expect(linesOf('const a = { ...b };')).toEqual([]);
    expect(linesOf('const a = { ...b, ...c };')).toEqual([]);
    expect(linesOf('const a = { c: 1, ...b };')).toEqual([]);
    expect(linesOf('const a = { c: 1, ...b, d: 2 };')).toEqual([]);
    expect(linesOf('const a = Object.assign({}, b, { c: 1 });')).toEqual([]);
    expect(linesOf('const { c, ...rest } = b;')).toEqual([]);
    expect(linesOf('const a = [...b, 1];')).toEqual([]);
  });
});
