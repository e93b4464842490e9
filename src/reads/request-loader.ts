/**
 * The per-request DataLoader in front of the shared upstream.
 *
 * The upstream has no batch endpoints, so "batching" here means that every
 * read asked for in one tick of resolver execution is started together and
 * each distinct URL is read once per request, however many fields need it
 * (twenty milestones of one artist ask for that artist once). The loader's
 * memo lives and dies with the request, so nothing here is shared between
 * clients; sharing across requests is the cache's job, behind the key checks.
 *
 * Failures leave here in the gateway's own words (client-messages.ts); the
 * upstream's text, if it said anything, is logged at debug level, redacted.
 */
import DataLoader from 'dataloader';
import { type ResponsePath as Path, responsePathAsArray } from 'graphql';
import type { Logger } from 'pino';
import { clientFacing, upstreamTextForLog } from '../upstream/client-messages.js';
import type { UpstreamRequest } from '../upstream/endpoints.js';
import { UpstreamError } from '../upstream/errors.js';
import type { CachedUpstream } from './cached-upstream.js';
import type { Caller } from './caller.js';
import { heldReadSpan, readSpan } from './read-span.js';
import type { RequestReads } from './request-spending.js';

/** A field answered from held data that was not current (`extensions.stale`). */
export interface StaleField {
  /** The field's place in the response, as an error's `path`: keys and list indices. */
  readonly path: readonly (string | number)[];
  /** How old the held data is, in seconds (the oldest, when the field read several). */
  readonly ageSeconds: number;
}

/** What resolvers read the upstream through (`context.loader`): the request's loader, as a field uses it. */
export interface Loader {
  /**
   * Reads one upstream resource, at most once per request. A record this process holds as
   * current comes back as an already settled promise, without a read's scheduling.
   */
  load<T>(request: UpstreamRequest<T>): Promise<T>;
  /**
   * `load` without a promise when it can be: the record itself when this process holds it as
   * current, else the promise `load` gives. Resolvers answer held records without a promise.
   */
  read<T>(request: UpstreamRequest<T>): T | Promise<T>;
  /**
   * The record `load` would answer at once, without a promise, when this process holds it as
   * current (counted as `load` counts it); undefined when `load` must read or wait.
   */
  peek<T>(request: UpstreamRequest<T>): T | undefined;
  /** Starts a read that a field further down will need; its failure is that field's to report. */
  prefetch(request: UpstreamRequest<unknown>): void;
  /** Resolves once every read this request started has settled. */
  settled(): Promise<void> | undefined;
  /** The length of the list `page` belongs to, if a current page of it has told it. */
  knownTotal(page: UpstreamRequest<unknown>): Promise<number | undefined>;
  /** Whether the upstream recently answered not-found for this resource. */
  knownMissing(request: UpstreamRequest<unknown>): Promise<boolean>;
  /** This loader for the field at `path`: what it loads is known to answer that field. */
  forField(path: Path): Loader;
  /** The fields whose reads were answered from held data that was not current, with its age. */
  staleFields(): StaleField[];
}

export class RequestLoader implements Loader {
  readonly #loader: DataLoader<UpstreamRequest<unknown>, unknown, string>;
  /** The fields (their response paths) that loaded each read, by the read's key. */
  readonly #readers = new Map<string, Path[]>();
  readonly #seen = new Set<string>();
  /** Reads started ahead of the field that needs them: its own load is not a duplicate. */
  readonly #prefetched = new Set<string>();
  /** Records answered at once from what this process holds (`peek`), by the read's key. */
  readonly #held = new Map<string, unknown>();
  /** Reads started and not yet settled, those no field turned out to need included. */
  readonly #pending = new Set<Promise<unknown>>();
  /** Whether each read is a span of its own (read-span.ts): only where traces are exported. */
  readonly #traced: boolean;

  constructor(
    private readonly upstream: CachedUpstream,
    private readonly caller: Caller,
    private readonly reads: RequestReads,
    { logger, traced = false }: { readonly logger?: Logger; readonly traced?: boolean } = {},
  ) {
    this.#traced = traced;
    const failed = (request: UpstreamRequest<unknown>, error: unknown): Error => {
      if (!(error instanceof UpstreamError))
        return error instanceof Error ? error : new Error(String(error));
      if (error.status !== undefined && logger?.isLevelEnabled('debug')) {
        logger.debug(
          {
            code: error.code,
            status: error.status,
            resource: request.resource,
            path: error.path,
            upstreamText: upstreamTextForLog(error.message, [caller.apiKey]),
          },
          'upstream error answer',
        );
      }
      return clientFacing(error, request);
    };
    this.#loader = new DataLoader(
      // The batch's reads start together, but each settles its own loads: a field whose read is in
      // goes on (and its children's reads leave) without waiting for the slowest read of its batch.
      async (requests) =>
        requests.map((request) => {
          const read = (
            traced
              ? readSpan(request.resource, () => upstream.read(request, caller, reads))
              : upstream.read(request, caller, reads)
          ).catch((error: unknown) => {
            throw failed(request, error);
          });
          this.#pending.add(read);
          const settle = () => this.#pending.delete(read);
          read.then(settle, settle);
          return read;
        }),
      { cacheKeyFn: (request) => request.key },
    );
  }

  /** Reads one upstream resource, at most once per request; `field`: the field it answers. */
  load<T>(request: UpstreamRequest<T>, field?: Path): Promise<T> {
    const value = this.read(request, field);
    return value instanceof Promise ? value : Promise.resolve(value);
  }

  /** `load`, answering a record held as current without a promise; `field`: the field it answers. */
  read<T>(request: UpstreamRequest<T>, field?: Path): T | Promise<T> {
    const held = this.peek(request, field);
    if (held !== undefined) return held;
    this.#count(request.key, field);
    return this.#loader.load(request) as Promise<T>;
  }

  /**
   * `load`'s answer without a promise when the record is held as current, counted as `load`
   * counts it; undefined (and then nothing counted) when `load` must read or wait.
   */
  peek<T>(request: UpstreamRequest<T>, field?: Path): T | undefined {
    const { key } = request;
    // A read this request already started (the loader's memo holds it) is that read's to answer.
    const held = this.#held.has(key)
      ? { value: this.#held.get(key) as T }
      : this.#seen.has(key)
        ? undefined
        : this.#peekUpstream(request);
    if (held === undefined) return undefined;
    this.#count(key, field);
    return held.value;
  }

  /** What `load` records of each load: the field it answers, and whether it repeats a read. */
  #count(key: string, field: Path | undefined): void {
    if (field !== undefined) {
      const readers = this.#readers.get(key);
      if (readers === undefined) this.#readers.set(key, [field]);
      else readers.push(field);
    }
    if (this.#prefetched.delete(key)) {
      // The field this read was started for: not a second read.
    } else if (this.#seen.has(key)) this.reads.report.deduplicated += 1;
    else this.#seen.add(key);
  }

  #peekUpstream<T>(request: UpstreamRequest<T>): { value: T } | undefined {
    const held = this.upstream.peek(request, this.caller, this.reads);
    if (held === undefined) return undefined;
    const value = this.#traced ? heldReadSpan(request.resource, held.answer) : held.answer();
    this.#held.set(request.key, value);
    return { value };
  }

  /** Starts a read that a field further down will need; its failure is that field's to report. */
  prefetch(request: UpstreamRequest<unknown>): void {
    if (this.#seen.has(request.key)) return;
    this.#seen.add(request.key);
    this.#prefetched.add(request.key);
    if (this.#peekUpstream(request) === undefined)
      this.#loader.load(request).catch(() => undefined);
  }

  /**
   * Resolves once every read this request started has settled, including the
   * reads started ahead that its answer turned out not to need (an unknown
   * artist's children): the answer waits for them, so that its cost report
   * counts every call made for it and no call outlives its request.
   */
  settled(): Promise<void> | undefined {
    // Nothing out (every read was held): no promise, so the answer goes on at once.
    return this.#pending.size === 0 ? undefined : this.#whenSettled();
  }

  async #whenSettled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /** The length of the list `page` belongs to, if a current page of it has told it (no call is made to find out). */
  knownTotal(page: UpstreamRequest<unknown>): Promise<number | undefined> {
    return this.upstream.knownTotal(page, this.caller, this.reads);
  }

  /** Whether the upstream recently answered not-found for this resource (no call is made to find out). */
  knownMissing(request: UpstreamRequest<unknown>): Promise<boolean> {
    return this.upstream.knownMissing(request, this.caller, this.reads);
  }

  forField(path: Path): Loader {
    return new FieldLoader(this, path);
  }

  /**
   * Each field that loaded a read answered from held data (`report.stale`), once, with the oldest
   * such read's age; a read no field loaded (started ahead for a field that never came) names none.
   */
  staleFields(): StaleField[] {
    const fields = new Map<Path, number>();
    for (const { key, ageSeconds } of this.reads.report.stale)
      for (const path of this.#readers.get(key) ?? [])
        fields.set(path, Math.max(ageSeconds, fields.get(path) ?? 0));
    return [...fields].map(([path, ageSeconds]) => ({
      path: responsePathAsArray(path),
      ageSeconds,
    }));
  }
}

/** The request's loader as one field uses it: each load is recorded as that field's. */
class FieldLoader implements Loader {
  constructor(
    private readonly loader: RequestLoader,
    private readonly path: Path,
  ) {}

  load<T>(request: UpstreamRequest<T>): Promise<T> {
    return this.loader.load(request, this.path);
  }

  read<T>(request: UpstreamRequest<T>): T | Promise<T> {
    return this.loader.read(request, this.path);
  }

  peek<T>(request: UpstreamRequest<T>): T | undefined {
    return this.loader.peek(request, this.path);
  }

  prefetch(request: UpstreamRequest<unknown>): void {
    this.loader.prefetch(request);
  }

  settled(): Promise<void> | undefined {
    return this.loader.settled();
  }

  knownTotal(page: UpstreamRequest<unknown>): Promise<number | undefined> {
    return this.loader.knownTotal(page);
  }

  knownMissing(request: UpstreamRequest<unknown>): Promise<boolean> {
    return this.loader.knownMissing(request);
  }

  forField(path: Path): Loader {
    return this.loader.forField(path);
  }

  staleFields(): StaleField[] {
    return this.loader.staleFields();
  }
}
