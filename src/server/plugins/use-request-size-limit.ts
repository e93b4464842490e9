/**
 * Refuses request bodies above `maxBytes` with 413 PAYLOAD_TOO_LARGE, and
 * bodies that are not UTF-8 with 400 BAD_REQUEST, before Yoga decodes them
 * (leniently: a bad byte would become U+FFFD in a slug, and cost a call).
 * A body without a Content-Length is counted as it streams in, and one with
 * a Content-Length is never longer than it says (Node's parser frames it),
 * so neither gets more than `maxBytes` buffered. (GET requests carry the
 * document in the URL, which Node bounds with its header size limit.)
 */
import { isUtf8 } from 'node:buffer';
import type { Plugin } from 'graphql-yoga';
import type { RequestContext, ServerContext } from '../server-context.js';

type RequestParser = NonNullable<
  Parameters<NonNullable<Plugin['onRequestParse']>>[0]['requestParser']
>;

import { bodyNotUtf8, payloadTooLarge } from '../../http-errors.js';
import { DEFAULT_MAX_REQUEST_BYTES } from '../../setting-defaults.js';

export interface RequestSizeLimitOptions {
  readonly maxBytes?: number;
}

export function useRequestSizeLimit({
  maxBytes = DEFAULT_MAX_REQUEST_BYTES,
}: RequestSizeLimitOptions = {}): Plugin<RequestContext, ServerContext> {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1)
    throw new Error(`maxBytes must be a positive integer: ${maxBytes}`);
  return {
    onRequestParse({ request, requestParser, setRequestParser, serverContext }) {
      if (requestParser === undefined || request.body === null) return;
      const declared = Number(request.headers.get('content-length') ?? Number.NaN);
      if (declared > maxBytes) throw payloadTooLarge(maxBytes);
      // A JSON body the listener read is already in memory and checked (response-cache/fast-path.ts).
      if (readByListener(serverContext)) return;
      // Node's HTTP parser frames a body by its Content-Length (bytes past it are the next
      // request, refused with both framing headers), so a declared body is within the bound;
      // one without (chunked) is counted as it streams in. Every body is read once, here, for
      // its UTF-8 check, whatever its media type, and the parser reads that copy.
      // The parser's type is a union of single and batched results; it is returned as it came.
      const limited = (async (original: Request) => {
        const body = await readAtMost(original, maxBytes);
        return requestParser(
          new Request(original.url, { method: original.method, headers: original.headers, body }),
        );
      }) as RequestParser;
      setRequestParser(limited);
    },
  };
}

async function readAtMost(request: Request, maxBytes: number): Promise<ArrayBuffer> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = request.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel();
      throw payloadTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  if (!isUtf8(body)) throw bodyNotUtf8();
  return body.buffer;
}

/** @whatwg-node/server reads a body the listener consumed from `req.body` instead of the stream. */
function readByListener(serverContext: ServerContext): boolean {
  return serverContext.req?.body !== undefined;
}
