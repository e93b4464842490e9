/** Values kept on per-request objects under a symbol (src/server/object-slot.ts). */
import { expect, it } from 'vitest';
import { objectSlot } from '../../src/server/object-slot.js';

it('keeps a value on its owner, apart from every other slot', () => {
  const started = objectSlot<number>('started');
  const other = objectSlot<number>('started');
  const owner = {};
  expect(started.get(owner)).toBeUndefined();
  started.set(owner, 1);
  started.set(owner, 2);
  expect(started.get(owner)).toBe(2);
  expect(other.get(owner)).toBeUndefined();
});

it('hides the value from enumeration, JSON and equality of data', () => {
  const slot = objectSlot<string>('json');
  const data = { artist: { name: 'A' } };
  slot.set(data, '{"artist":{"name":"A"}}');
  expect(Object.keys(data)).toEqual(['artist']);
  expect(JSON.stringify(data)).toBe('{"artist":{"name":"A"}}');
  expect(data).toStrictEqual({ artist: { name: 'A' } });
});

it('keeps nothing on an owner that cannot take it: the value is made again when asked', () => {
  const slot = objectSlot<string>('frozen');
  const frozen = Object.freeze({ a: 1 });
  slot.set(frozen, 'x');
  expect(slot.get(frozen)).toBeUndefined();
});
