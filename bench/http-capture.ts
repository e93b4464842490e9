/**
 * One POST as the load generator sends it (autocannon: the body and a JSON
 * content type, nothing else), kept as bytes: what the gateway answers is what
 * the bare server will replay, so the two are measured sending the same thing.
 */
import { type IncomingHttpHeaders, type OutgoingHttpHeaders, request } from 'node:http';

export interface Capture {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly ms: number;
}

/**
 * Headers that belong to one connection or one moment, not to the answer: node:http writes its own.
 * Content-Length stays: without it node:http frames the bare answer in chunks, as the gateway did.
 */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** What the bare server replays; the body travels over IPC as base64. */
export interface CapturedAnswer {
  readonly status: number;
  readonly headers: OutgoingHttpHeaders;
  readonly bodyBase64: string;
}

export const LOAD_HEADERS = { 'content-type': 'application/json' } as const;

/** `headers`: more than the load generator's, as a client of pass-through mode sends its key. */
export function capture(
  url: string,
  body: string,
  headers: OutgoingHttpHeaders = {},
): Promise<Capture> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        headers: { ...LOAD_HEADERS, ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('error', reject);
        response.once('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
            ms: performance.now() - started,
          }),
        );
      },
    );
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}

/** The headers to replay: everything the gateway said about its answer. */
export function answerHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_CONNECTION.has(name)));
}
