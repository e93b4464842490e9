/**
 * Answers compressed for the clients that accept it (`Accept-Encoding`: br,
 * gzip or deflate), around the whole node:http listener, so that answers
 * from the response cache and from Yoga alike are: a page of the top 20
 * with histories is 180 KB of JSON and 33 KB in brotli. Done by the
 * `compression` middleware (negotiation, `Vary: Accept-Encoding`,
 * `Cache-Control: no-transform`, back-pressure), with settings for JSON
 * made on every request rather than files made once:
 *
 * - Brotli at quality 1: measured on that page, 0.4 ms for 33.4 KB where
 *   the middleware's default quality 4 takes 1.3 ms for 32.7 KB; gzip at
 *   level 4, 0.9 ms for 34.9 KB (its default 6: 1.6 ms for 34.0 KB).
 * - Only whole answers: JSON, GraphiQL's page and /metrics, from
 *   `minBytes`. Never a stream (SSE subscriptions, multipart @defer and
 *   @stream): the compressor would hold each event until it has enough to
 *   send, and a live update would not arrive.
 *
 * A request that accepts no encoding skips this layer altogether.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants } from 'node:zlib';
import compression from 'compression';
import { GZIP_LEVEL } from './response-cache/gzip-answer.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export const DEFAULT_COMPRESSION_MIN_BYTES = 1024;

/** Whole answers, by media type; `text/event-stream` and `multipart/mixed` are not among them. */
const WHOLE_ANSWERS =
  /^\s*(application\/(json|graphql-response\+json)|text\/html|text\/plain)\s*(;|$)/i;

export function withCompressedResponses(
  listener: Listener,
  minBytes = DEFAULT_COMPRESSION_MIN_BYTES,
): Listener {
  if (!Number.isSafeInteger(minBytes) || minBytes < 0)
    throw new Error(`minBytes must be a non-negative integer: ${minBytes}`);
  const compress = compression({
    threshold: minBytes,
    level: GZIP_LEVEL,
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } },
    filter: (_, res) => WHOLE_ANSWERS.test(String(res.getHeader('content-type') ?? '')),
  }) as unknown as (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
  return (req, res) => {
    if (req.headers['accept-encoding'] === undefined) {
      listener(req, res);
      return;
    }
    compress(req, res, () => listener(req, res));
  };
}
