/**
 * GraphiQL's page is a static asset (issue 29): the same stored bytes on
 * every load, in brotli, gzip or identity, each with a strong ETag;
 * `Cache-Control: no-cache` lets a browser keep it and ask again, and a
 * matching If-None-Match gets 304 with no body. Content negotiation is
 * Yoga's: a browser gets the page, a GraphQL GET is still executed.
 * GRAPHIQL=false turns the page off.
 */
import { Agent, request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_KEY, type Stack, startStack } from '../support/stack.js';

/** A raw GET (fetch would decode the body and hide its encoding), the body as sent. */
function get(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers, agent: new Agent() }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers as Record<string, string>,
          body: Buffer.concat(chunks),
        }),
      );
      res.once('error', reject);
    })
      .once('error', reject)
      .end();
  });
}

/** The Authorization header the page offers, as its options' JSON carries it (`<` escaped inside the script). */
const OFFERED_HEADER = 'Bearer \\u003cyour API key>';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('GraphiQL as a static page', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ gateway: { exampleVariables: { ArtistPage: { slug: 'x-y' } } } });
  });
  afterAll(() => stack.close());

  const page = (headers: Record<string, string> = {}) =>
    get(`${stack.url}/graphql`, { accept: BROWSER, ...headers });

  it('sends the same stored page in brotli, gzip or identity, each form with a strong ETag', async () => {
    const br = await page({ 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await page({ 'accept-encoding': 'gzip, deflate' });
    const identity = await page();
    expect([br.status, gzip.status, identity.status]).toEqual([200, 200, 200]);
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(identity.headers['content-encoding']).toBeUndefined();
    const html = identity.body.toString('utf8');
    expect(html).toMatch(/^\s*<!doctype html>/);
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(html);
    expect(gunzipSync(gzip.body).toString('utf8')).toBe(html);

    const forms = [br, gzip, identity];
    for (const form of forms) {
      expect(form.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(Number(form.headers['content-length'])).toBe(form.body.length);
      expect(form.headers['cache-control']).toBe('no-cache');
      expect(form.headers.vary).toBe('Accept, Accept-Encoding');
      expect(form.headers.etag).toMatch(/^"[\w-]+"$/);
    }
    expect(new Set(forms.map((form) => form.headers.etag)).size).toBe(3);

    // Made once: a later load is the very same bytes under the same tag.
    const again = await page({ 'accept-encoding': 'gzip, deflate, br' });
    expect(again.headers.etag).toBe(br.headers.etag);
    expect(again.body.equals(br.body)).toBe(true);
  });

  it('answers 304 without a body to a revalidation with the tag of the form it would send', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const first = await page({ 'accept-encoding': encoding });
      const etag = first.headers.etag!;
      const revalidated = await page({ 'accept-encoding': encoding, 'if-none-match': etag });
      expect(revalidated.status, encoding).toBe(304);
      expect(revalidated.body.length).toBe(0);
      expect(revalidated.headers.etag).toBe(etag);
      expect(revalidated.headers['cache-control']).toBe('no-cache');
      // A tag of another page (an earlier deployment's) gets the page.
      const stale = await page({ 'accept-encoding': encoding, 'if-none-match': '"old-page"' });
      expect(stale.status).toBe(200);
      expect(stale.body.equals(first.body)).toBe(true);
    }
  });

  it('opens with the example tabs; a GraphQL GET of the same URL is still executed', async () => {
    const html = (await page()).body.toString('utf8');
    expect(html).toContain('Music Streaming Statistics GraphQL');
    expect(html).toContain('query ArtistPage');
    expect(html).toContain('x-y');
    expect(html).not.toContain(OFFERED_HEADER);

    const query = await fetch(
      `${stack.url}/graphql?query=${encodeURIComponent('{ __typename }')}`,
      {
        headers: { accept: 'application/graphql-response+json' },
      },
    );
    expect(query.status).toBe(200);
    expect(await query.json()).toMatchObject({ data: { __typename: 'Query' } });
  });

  it('offers the Authorization header to fill in, in pass-through mode', async () => {
    const passThrough = await startStack({ passThrough: true, sharedSimulator: stack.simulator });
    try {
      const html = (await get(`${passThrough.url}/graphql`, { accept: BROWSER })).body.toString(
        'utf8',
      );
      expect(html).toContain(OFFERED_HEADER);
      const query = await passThrough.query('{ __typename }', undefined, {
        authorization: `Bearer ${CLIENT_KEY}`,
      });
      expect(query.status).toBe(200);
    } finally {
      await passThrough.close();
    }
  });
});

describe('GRAPHIQL=false', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ gateway: { graphiql: false } });
  });
  afterAll(() => stack.close());

  it('serves no page: a browser gets no HTML at the endpoint, and / is not found', async () => {
    // The endpoint is GraphQL's alone: a GET without a query is a bad request.
    const endpoint = await get(`${stack.url}/graphql`, { accept: BROWSER });
    expect(endpoint.status).toBe(400);
    expect(endpoint.headers['content-type']).not.toMatch(/html/);
    expect(endpoint.body.toString('utf8')).not.toContain('<html');
    const root = await get(`${stack.url}/`, { accept: BROWSER });
    expect(root.status).toBe(404);
    // GraphQL itself is untouched.
    expect((await stack.query('{ __typename }')).body).toMatchObject({
      data: { __typename: 'Query' },
    });
  });
});
