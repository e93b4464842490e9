/**
 * What clients read when an upstream read fails: the gateway's own words,
 * built from the error's code and the resource asked for (`Artist "x" not
 * found`), never the upstream's text, which may carry a key, an internal host
 * or anything else an upstream or a proxy put there. That text goes to the
 * debug log only, with secrets redacted (`upstreamTextForLog`).
 */

import { urlPath } from '../url-path.js';
import type { UpstreamRequest } from './endpoints.js';
import { UpstreamError } from './errors.js';
import { keyPaused, rateLimitKindOf } from './rate-limits.js';

/** The upstream's own text is never longer than this in a log line. */
const MAX_LOGGED_TEXT = 300;

/** The same failure with a message the gateway wrote; the original stays as its `cause`. */
export function clientFacing(
  error: UpstreamError,
  request: UpstreamRequest<unknown>,
): UpstreamError {
  return new UpstreamError(error.code, clientMessage(error, request), {
    status: error.status,
    path: error.path,
    resetsAt: error.resetsAt,
    retryAfterSeconds: error.retryAfterSeconds,
    reason: error.reason,
    cause: error,
  });
}

function clientMessage(error: UpstreamError, request: UpstreamRequest<unknown>): string {
  switch (error.code) {
    case 'NOT_FOUND':
      return `${subjectOf(request)} not found`;
    case 'UNAUTHENTICATED':
      return 'Invalid or revoked API key';
    case 'RATE_LIMITED': {
      // The gateway's own ledger refused (day spent, key paused, client's share spent): its message says which.
      if (error.status === undefined) return error.message;
      const kind = rateLimitKindOf(error);
      if (kind.kind === 'pause') return keyPaused(kind.ms, error.resetsAt ?? '').message;
      return `The daily upstream request budget of this API key is spent${error.resetsAt ? `; it resets at ${error.resetsAt}` : ''}`;
    }
    default:
      // No upstream status: the upstream said nothing, so the message is already the gateway's own.
      if (error.status === undefined) return error.message;
      if (error.code === 'BAD_USER_INPUT')
        return `The upstream API refused the parameters of the ${request.resource} request`;
      if (error.code === 'UPSTREAM_INVALID_RESPONSE') {
        return `The upstream API answered the ${request.resource} request with an unreadable body`;
      }
      return `The upstream API failed to answer the ${request.resource} request (HTTP ${error.status})`;
  }
}

/** Which record was missing, by the path segments after /api/v1 (see endpoints.ts). */
const SUBJECTS: Readonly<Record<string, (segments: readonly string[]) => string>> = {
  artist: (s) => `Artist "${s[1]}"`,
  'artist history': (s) => `Artist "${s[1]}"`,
  'songs of artist': (s) => `Artist "${s[1]}"`,
  song: (s) => `Song "${s[1]}"`,
  'song history': (s) => `Song "${s[1]}"`,
  album: (s) => `Album "${s[1]}"`,
  chart: (s) => `Chart "${s[1]}/${s[2]}"`,
  'milestone timeline': (s) => `Artist "${s[2]}"`,
  'milestone fact': (s) =>
    s[3] === 'songs' ? `Song "${s[4]}" of artist "${s[2]}"` : `Artist "${s[2]}"`,
};

function subjectOf(request: UpstreamRequest<unknown>): string {
  const path = urlPath(request.key);
  const segments = path.split('/').slice(3).map(decodeSegment);
  const subject = SUBJECTS[request.resource];
  return subject
    ? subject(segments)
    : `${request.resource.charAt(0).toUpperCase()}${request.resource.slice(1)}`;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The upstream's own text, fit for a debug log: bounded, and with the keys in
 * use, bearer tokens, credentials in URLs and `key=value` secrets replaced.
 */
export function upstreamTextForLog(text: string, keys: readonly string[]): string {
  let redacted = text.slice(0, MAX_LOGGED_TEXT);
  for (const key of keys) if (key.length > 0) redacted = redacted.split(key).join('[REDACTED]');
  return redacted
    .replace(/\bBearer\s+[^\s"',;]+/gi, 'Bearer [REDACTED]')
    .replace(/\/\/[^/\s:@]+:[^/\s@]+@/g, '//[REDACTED]@')
    .replace(
      /\b(api[_-]?key|apikey|access[_-]?token|token|secret|password|authorization)(["']?\s*[:=]\s*["']?)[^\s"',;&]+/gi,
      '$1$2[REDACTED]',
    );
}
