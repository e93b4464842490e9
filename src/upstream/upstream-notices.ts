/**
 * What an operator needs to know about how the real upstream answers: every
 * tolerated oddity of a body (a numeric string, a snake_case name, a record
 * left out) and every assumption the upstream contradicted. Each distinct
 * notice is logged once per process, so a misshapen hot resource cannot
 * flood the log; the set of remembered notices is bounded.
 */
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { urlPath } from '../url-path.js';
import type { UpstreamRequest } from './endpoints.js';
import type { ReadNote } from './reading.js';

const REMEMBERED_NOTICES = 10_000;
/** A body with a thousand oddities is one problem: the first few say what it is. */
const NOTES_PER_LINE = 20;

export class UpstreamNotices {
  readonly #seen = new LRUCache<string, true>({ max: REMEMBERED_NOTICES });

  constructor(private readonly logger: Logger) {}

  #first(key: string): boolean {
    if (this.#seen.has(key)) return false;
    this.#seen.set(key, true);
    return true;
  }

  /** Oddities met while reading one body; logged with the upstream path, record, field and value. */
  bodyRead(request: UpstreamRequest<unknown>, notes: readonly ReadNote[]): void {
    if (notes.length === 0) return;
    const path = urlPath(request.key);
    const fresh = notes.filter((note) =>
      this.#first(`${path} ${note.at} ${note.field} ${note.note}`),
    );
    if (fresh.length === 0) return;
    this.logger.warn(
      {
        upstreamPath: path,
        resource: request.resource,
        oddities: fresh.slice(0, NOTES_PER_LINE),
        count: fresh.length,
      },
      'upstream body differs from the assumed shape; tolerated where unambiguous',
    );
  }

  /** The upstream refused a request built on an assumption (a 400): say which, once. */
  assumptionContradicted(request: UpstreamRequest<unknown>, upstreamMessage: string): void {
    if (request.assumption === undefined || !this.#first(`assumption ${request.assumption}`))
      return;
    this.logger.warn(
      {
        upstreamPath: urlPath(request.key),
        assumption: request.assumption,
        upstreamMessage: upstreamMessage.slice(0, 200),
      },
      'the upstream contradicted an assumption of the gateway (see README, "Upstream assumptions")',
    );
  }
}
