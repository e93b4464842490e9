/**
 * Which strings may stand as one segment of an upstream path. Encoding keeps
 * a value inside its segment, but an upstream or proxy that normalises dot
 * segments or decodes `%2F` would still route `..` or `a/b` elsewhere, and a
 * lone surrogate cannot be encoded at all. No real slug, chart name or
 * territory looks like any of these, so they are refused before any call.
 */
import { UpstreamError } from './errors.js';

// Control characters (C0, DEL, C1) and UTF-16 halves without their partner.
const FORBIDDEN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /[\u0000-\u001f\u007f-\u009f/\\]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

// Invisible formatting characters (zero-width space, joiners, BOM, bidi marks): a slug pasted
// with one looks right and names nothing, one upstream call per variant.
const INVISIBLE = /\p{Cf}/u;

/** Why `value` cannot be a path segment, or undefined when it can. */
export function pathValueProblem(value: string): string | undefined {
  if (value === '' || value === '.' || value === '..') return 'must not be empty, "." or ".."';
  if (FORBIDDEN.test(value))
    return 'must not contain "/", "\\", control characters or unpaired surrogates';
  if (INVISIBLE.test(value)) return 'must not contain invisible formatting characters';
  return undefined;
}

/** Throws BAD_USER_INPUT for a segment that `pathValueProblem` refuses: the last guard before a path is built. */
export function requirePathValues(segments: readonly string[]): void {
  for (const segment of segments) {
    const problem = pathValueProblem(segment);
    if (problem !== undefined) throw new UpstreamError('BAD_USER_INPUT', `A path value ${problem}`);
  }
}
