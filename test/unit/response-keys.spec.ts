import { isUtf8 } from 'node:buffer';
import { describe, expect, it, vi } from 'vitest';
import { responseKeys } from '../../src/server/response-cache/response-keys.js';
import { responseKey } from '../../src/server/response-cache/stored-response.js';

/** Every body admitted: these cases are about the keys. */
const all = () => true;

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
    expect(keyOf(request, all)).toBe(expected);
    expect(keyOf({ ...request, source: Buffer.from(request.source) }, all)).toBe(expected);
  });

  it('gives a key of its own to a request that differs in any part it was keyed by', () => {
    const keyOf = responseKeys();
    keyOf(request, all);
    const others = [
      { ...request, method: 'GET' },
      { ...request, accept: 'application/graphql-response+json' },
      { ...request, generation: '2026-11-30' },
      { ...request, source: Buffer.from(request.source.toString().replace('burna', 'burnt')) },
    ];
    for (const other of others) {
      expect(keyOf(other, all)).toBe(responseKey(other));
      expect(keyOf(other, all)).not.toBe(responseKey(request));
      // and the first request, asked again after it, still has its own
      expect(keyOf(request, all)).toBe(responseKey(request));
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
    expect(keyOf(accented, all)).toBe(responseKey(accented));
    expect(keyOf(latin1, all)).toBe(responseKey(latin1));
    expect(keyOf(latin1, all)).not.toBe(keyOf(accented, all));
  });

  it('stays right past the number of requests it remembers, and for long bodies', () => {
    const keyOf = responseKeys();
    const many = Array.from({ length: 2_500 }, (_, index) => ({
      ...request,
      source: Buffer.from(`{"query":"{ __typename }","variables":{"n":${index}}}`),
    }));
    for (const each of many) expect(keyOf(each, all)).toBe(responseKey(each));
    for (const each of many.slice(0, 10)) expect(keyOf(each, all)).toBe(responseKey(each));
    const long = { ...request, source: Buffer.alloc(10_000, 'x') };
    expect(keyOf(long, all)).toBe(responseKey(long));
  });

  it('keys a body only once it is admitted, and looks at the same bytes once', () => {
    const keyOf = responseKeys();
    const admits = vi.fn(isUtf8);
    const invalid = { ...request, source: Buffer.from([0x7b, 0xff, 0x7d]) };
    expect(keyOf(invalid, admits)).toBeUndefined();
    expect(keyOf(invalid, admits)).toBeUndefined();
    expect(admits).toHaveBeenCalledTimes(2);

    admits.mockClear();
    expect(keyOf(request, admits)).toBe(responseKey(request));
    expect(keyOf({ ...request, source: Buffer.from(request.source) }, admits)).toBe(
      responseKey(request),
    );
    // another generation, the same bytes: keyed anew, not looked at anew
    const later = { ...request, generation: '2026-11-30' };
    expect(keyOf(later, admits)).toBe(responseKey(later));
    expect(admits).toHaveBeenCalledTimes(1);
  });

  it('looks at every long body, and never at a URL', () => {
    const keyOf = responseKeys();
    const admits = vi.fn(isUtf8);
    const long = { ...request, source: Buffer.alloc(10_000, 'x') };
    expect(keyOf(long, admits)).toBe(responseKey(long));
    expect(keyOf(long, admits)).toBe(responseKey(long));
    expect(admits).toHaveBeenCalledTimes(2);
    const invalidLong = { ...request, source: Buffer.alloc(10_000, 0xff) };
    expect(keyOf(invalidLong, admits)).toBeUndefined();

    admits.mockClear();
    const get = { ...request, method: 'GET', source: '/graphql?query=%7B__typename%7D' };
    expect(keyOf(get, admits)).toBe(responseKey(get));
    expect(admits).not.toHaveBeenCalled();
  });

  it('looks at a body whose bytes are the text of a URL it keyed', () => {
    const keyOf = responseKeys();
    // node:http gives a URL's bytes as latin1 characters, a byte 0xff as "\u00ff"
    const url = '/graphql?query=\u00ff';
    keyOf({ ...request, method: 'GET', source: url }, all);
    const body = { ...request, source: Buffer.from(url, 'latin1') };
    expect(keyOf(body, isUtf8)).toBeUndefined();
  });
});
