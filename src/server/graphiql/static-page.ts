/**
 * A page that changes only with the deployment (GraphiQL's), made once and
 * sent as stored bytes. Rendering and compressing it again for every request
 * would cost, per request, a template string of the whole page, its
 * encoding and a compressor's state: under many concurrent loads of
 * GraphiQL, memory and both cores.
 *
 * - Made on first use, not at start: most processes (tests, replicas behind
 *   an API client) never serve it. Concurrent first requests wait for the
 *   same making; the compressors run on libuv's threads, not on the event loop.
 * - Three forms kept: identity, gzip (level 9) and brotli at quality 5, which
 *   makes nearly the smallest page in a fraction of the time and memory of
 *   the higher qualities. The client's preference decides, brotli on a tie.
 * - A strong ETag per form (RFC 9110: each content coding is a
 *   representation of its own), and `Cache-Control: no-cache`: a browser
 *   keeps the page and asks with `If-None-Match` each time, and gets 304
 *   with no body. Revalidating rather than trusting a max-age means a
 *   deployment's new page (new example tabs, a new GraphiQL) shows at its
 *   first load; a 304 costs a round trip and a few hundred bytes.
 * - Sent with its encoding and length set, so that the listener's
 *   compression layer (compressed-responses.ts) never touches it.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { preferredEncoding } from '../http/compressed-responses.js';
import { matches } from '../plugins/use-http-caching.js';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 9;
/** What a browser needs to know to keep the page: it may store it, and must ask before reusing it. */
export const PAGE_CACHE_CONTROL = 'no-cache';

type Coding = 'br' | 'gzip' | 'identity';

interface Form {
  readonly body: Buffer;
  readonly etag: string;
}

type Forms = Readonly<Record<Coding, Form>>;

async function formsOf(html: string): Promise<Forms> {
  const identity = Buffer.from(html, 'utf8');
  const [br, gz] = await Promise.all([
    brotli(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzipped(identity, { level: GZIP_LEVEL }),
  ]);
  // One hash of the content names every form; the suffix tells the forms apart.
  const tag = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  return {
    identity: { body: identity, etag: `"${tag}"` },
    gzip: { body: gz, etag: `"${tag}-gzip"` },
    br: { body: br, etag: `"${tag}-br"` },
  };
}

/** The form a request gets: the encoding it prefers (brotli on a tie), identity if it takes neither. */
function codingFor(req: IncomingMessage): Coding {
  return preferredEncoding(req, ['br', 'gzip'] as const) ?? 'identity';
}

export interface StaticPage {
  /** Answers `req` with the page (200) or, when its If-None-Match names the page's form, 304. */
  send(
    req: IncomingMessage,
    res: ServerResponse,
    headers?: Record<string, string>,
  ): Promise<number>;
}

/** `render` is called once, on the first `send`. */
export function staticPage(render: () => Promise<string>): StaticPage {
  let forms: Promise<Forms> | undefined;
  return {
    async send(req, res, extraHeaders = {}) {
      forms ??= render().then(formsOf);
      const coding = codingFor(req);
      const form = (await forms)[coding];
      const headers: Record<string, string> = {
        etag: form.etag,
        'cache-control': PAGE_CACHE_CONTROL,
        // The same URL answers JSON to a GraphQL client, and each encoding is a form of its own.
        vary: 'Accept, Accept-Encoding',
        ...extraHeaders,
      };
      if (extraHeaders.vary !== undefined)
        headers.vary = `Accept, Accept-Encoding, ${extraHeaders.vary}`;
      if (matches(stringHeader(req.headers['if-none-match']), form.etag)) {
        res.writeHead(304, headers).end();
        return 304;
      }
      headers['content-type'] = 'text/html; charset=utf-8';
      headers['content-length'] = String(form.body.length);
      if (coding !== 'identity') headers['content-encoding'] = coding;
      res.writeHead(200, headers);
      // The same Buffer goes to every client: node:http queues it as it is, never a copy.
      res.end(form.body);
      return 200;
    },
  };
}

function stringHeader(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
