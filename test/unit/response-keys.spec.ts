import { describe, expect, it } from 'vitest';
import { responseKeys } from '../../src/server/response-cache/response-keys.js';
import { responseKey } from '../../src/server/response-cache/stored-response.js';

const request = {
  method: 'POST',
  source: Buffer.from('{"query":"{ artist(slug: \\"burna-boy\\") { name } }"}'),
  accept: 'application/json',
  generation: '2026-11-29',
};

describe('responseKeys', () => {
  it('gives the key responseKey gives, the first time and every time after', () => {
    const keyOf = responseKeys();
    const expected = responseKey(request);
    expect(keyOf(request)).toBe(expected);
    expect(keyOf({ ...request, source: Buffer.from(request.source) })).toBe(expected);
  });

  it('gives a key of its own to a request that differs in any part it was keyed by', () => {
    const keyOf = responseKeys();
    keyOf(request);
    const others = [
      { ...request, method: 'GET' },
      { ...request, accept: 'application/graphql-response+json' },
      { ...request, generation: '2026-11-30' },
      { ...request, source: Buffer.from(request.source.toString().replace('burna', 'burnt')) },
    ];
    for (const other of others) {
      expect(keyOf(other)).toBe(responseKey(other));
      expect(keyOf(other)).not.toBe(responseKey(request));
      // and the first request, asked again after it, still has its own
      expect(keyOf(request)).toBe(responseKey(request));
    }
  });

  it('tells bodies apart by their bytes, whatever their encoding', () => {
    const keyOf = responseKeys();
    const accented = {
      ...request,
      source: Buffer.from('{"query":"{ artist(slug: \\"é\\") { name } }"}'),
    };
    const latin1 = {
      ...request,
      source: Buffer.from('{"query":"{ artist(slug: \\"é\\") { name } }"}', 'latin1'),
    };
    expect(keyOf(accented)).toBe(responseKey(accented));
    expect(keyOf(latin1)).toBe(responseKey(latin1));
    expect(keyOf(latin1)).not.toBe(keyOf(accented));
  });

  it('stays right past the number of requests it remembers, and for long bodies', () => {
    const keyOf = responseKeys();
    const many = Array.from({ length: 2_500 }, (_, index) => ({
      ...request,
      source: Buffer.from(`{"query":"{ __typename }","variables":{"n":${index}}}`),
    }));
    for (const each of many) expect(keyOf(each)).toBe(responseKey(each));
    for (const each of many.slice(0, 10)) expect(keyOf(each)).toBe(responseKey(each));
    const long = { ...request, source: Buffer.alloc(10_000, 'x') };
    expect(keyOf(long)).toBe(responseKey(long));
  });
});
