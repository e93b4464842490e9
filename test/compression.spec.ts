/**
 * Answers compressed for the clients that accept it (compressed-responses.ts),
 * response-cache hits in gzip from their stored part compressed once
 * (response-cache/gzip-answer.ts). Read here with undici's `request`, which
 * leaves the bytes as they came: Node's own zlib decodes them, checking the
 * gzip trailer's CRC-32 and length.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipWithTail } from '../src/server/response-cache/gzip-answer.js';
import { askTwice } from './support/admission.js';
import { type Stack, startStack } from './support/stack.js';

const PAGE =
  '{ topArtistsByStreams(limit: 20) { rank artist { slug name history { date dailyStreams } } } }';
const SMALL = '{ __typename }';

let stack: Stack;
let plain: Stack;
beforeAll(async () => {
  stack = await startStack();
  plain = await startStack({ gateway: { compression: false }, sharedSimulator: stack.simulator });
});
afterAll(async () => {
  await plain.close();
  await stack.close();
});

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly bytes: Buffer;
  /** The body decoded as its Content-Encoding says, parsed. */
  readonly body: {
    data?: Record<string, unknown>;
    extensions?: { cost?: { responseCache?: string; upstreamCalls?: number } };
  };
}

async function post(target: Stack, query: string, acceptEncoding?: string): Promise<RawAnswer> {
  const response = await request(`${target.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
    },
    body: JSON.stringify({ query }),
  });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  const encoding = response.headers['content-encoding'];
  const decoded =
    encoding === 'gzip'
      ? gunzipSync(bytes)
      : encoding === 'br'
        ? brotliDecompressSync(bytes)
        : encoding === 'deflate'
          ? inflateSync(bytes)
          : bytes;
  return {
    status: response.statusCode,
    headers: response.headers,
    bytes,
    body: JSON.parse(decoded.toString('utf8')),
  };
}

describe('negotiation', () => {
  it('compresses a page in the encoding the client prefers, to the same answer', async () => {
    const reference = await post(plain, PAGE, 'gzip, deflate, br');
    expect(reference.headers['content-encoding']).toBeUndefined();
    for (const encoding of ['br', 'gzip', 'deflate']) {
      const answer = await post(stack, PAGE, encoding);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(String(answer.headers.vary)).toMatch(/accept-encoding/i);
      expect(answer.bytes.length).toBeLessThan(reference.bytes.length / 3);
      expect(answer.body.data).toEqual(reference.body.data);
    }
  });

  it('says so in Vary on every cacheable answer, asked for an encoding or not; not when it is off', async () => {
    const get = (target: Stack) =>
      request(`${target.url}/graphql?query=${encodeURIComponent(PAGE)}`, {
        headers: { accept: 'application/graphql-response+json' },
      }).then(async (response) => {
        await response.body.dump();
        return response.headers.vary;
      });
    expect(await get(stack)).toBe('Accept, Accept-Encoding');
    expect(await get(plain)).toBe('Accept');
  });

  it('leaves small answers, refused encodings and clients that ask for none alone', async () => {
    expect((await post(stack, SMALL, 'gzip, br')).headers['content-encoding']).toBeUndefined();
    for (const acceptEncoding of [
      undefined,
      'identity',
      'gzip;q=0, br;q=0, deflate;q=0',
      '*;q=0',
    ]) {
      const answer = await post(stack, PAGE, acceptEncoding);
      expect(answer.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(answer.body.data).toBeDefined();
    }
  });

  it('never compresses a stream: subscription events and @defer payloads arrive as they are', async () => {
    const events = await request(
      `${stack.url}/graphql?query=${encodeURIComponent('subscription { milestoneCrossed { threshold } }')}`,
      { headers: { accept: 'text/event-stream', 'accept-encoding': 'gzip, br' } },
    );
    expect(events.headers['content-type']).toMatch(/text\/event-stream/);
    // Yoga marks its event streams `Content-Encoding: none` for the proxies in between.
    expect([undefined, 'none']).toContain(events.headers['content-encoding']);
    events.body.on('error', () => undefined);
    events.body.destroy();

    const top = await post(stack, '{ topArtistsByStreams(limit: 1) { artist { slug } } }');
    const [first] = (top.body.data?.topArtistsByStreams ?? []) as { artist: { slug: string } }[];
    const deferred = await request(`${stack.url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'multipart/mixed',
        'accept-encoding': 'gzip, br',
      },
      body: JSON.stringify({
        query: `{ artist(slug: "${first?.artist.slug}") { name ... @defer { history { date dailyStreams } } } }`,
      }),
    });
    expect(deferred.headers['content-type']).toMatch(/multipart\/mixed/);
    expect(deferred.headers['content-encoding']).toBeUndefined();
    expect(await deferred.body.text()).toContain('"dailyStreams"');
  });
});

describe('response-cache hits', () => {
  it('go out in gzip from the stored part compressed once, each with its own report', async () => {
    const miss = await post(plain, PAGE);
    await askTwice(() => post(stack, PAGE, 'gzip'));
    const hits = [await post(stack, PAGE, 'gzip'), await post(stack, PAGE, 'gzip, deflate, br')];
    for (const hit of hits) {
      expect(hit.body.extensions?.cost?.responseCache).toBe('hit');
      expect(hit.headers['content-encoding']).toBe('gzip');
      expect(Number(hit.headers['content-length'])).toBe(hit.bytes.length);
      expect(hit.body.data).toEqual(miss.body.data);
    }
    // The same compressed part under each hit's own tail: only the ends differ.
    const [first, second] = hits.map((hit) => hit.bytes);
    expect(first!.subarray(0, 1_000)).toEqual(second!.subarray(0, 1_000));
  });

  it('go out in brotli, compressed whole, to a client that accepts only brotli', async () => {
    await askTwice(() => post(stack, PAGE, 'br'));
    const hit = await post(stack, PAGE, 'br');
    expect(hit.body.extensions?.cost?.responseCache).toBe('hit');
    expect(hit.headers['content-encoding']).toBe('br');
    expect(hit.body.data).toBeDefined();
  });
});

it('a stored part and any tail make one gzip stream that decodes to both, whatever their bytes', () => {
  fc.assert(
    fc.property(
      fc.array(fc.uint8Array({ maxLength: 3_000 }), { minLength: 1, maxLength: 3 }),
      fc.oneof(
        fc.uint8Array({ maxLength: 300 }),
        fc.uint8Array({ minLength: 65_530, maxLength: 80_000 }),
      ),
      (parts, tail) => {
        const owner = {};
        const stored = parts.map((part) => Buffer.from(part));
        const body = Buffer.concat(gzipWithTail(owner, stored, Buffer.from(tail)));
        expect(gunzipSync(body)).toEqual(Buffer.concat([...stored, Buffer.from(tail)]));
        // The stored part is compressed once: a second tail reuses it.
        const again = Buffer.concat(gzipWithTail(owner, stored, Buffer.from('{}')));
        expect(gunzipSync(again)).toEqual(Buffer.concat([...stored, Buffer.from('{}')]));
      },
    ),
    { seed: 20_261_124, numRuns: 25 },
  );
});
