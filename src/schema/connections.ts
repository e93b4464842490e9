/**
 * Relay connections over the upstream's page/limit envelopes.
 *
 * A connection window [start, end) is computed from first/after/last/before,
 * then served from whole upstream pages of the endpoint's maximum size, read
 * through the request loader and sliced here. Any window of up to 100 items
 * touches at most two upstream pages, and windows of other sizes or offsets
 * reuse the same cached pages. Once a page of a list has told its length,
 * a window at or past the end is answered without reading anything.
 */
import { MAX_PAGE_SIZE } from '../upstream/endpoints.js';
import type { DroppedRecord, Page } from '../upstream/records.js';
import { badUserInput } from './errors.js';

export interface ConnectionArgs {
  readonly first?: number | null;
  readonly after?: string | null;
  readonly last?: number | null;
  readonly before?: string | null;
}

export interface Edge<T> {
  readonly cursor: string;
  readonly node: T;
}

export interface Connection<E extends Edge<unknown>> {
  readonly edges: E[];
  readonly totalCount: number;
  readonly pageInfo: {
    readonly hasNextPage: boolean;
    readonly hasPreviousPage: boolean;
    readonly startCursor: string | null;
    readonly endCursor: string | null;
  };
}

export const DEFAULT_CONNECTION_SIZE = 20;
const CURSOR_PREFIX = 'offset:';
/** No upstream list is anywhere near this long; larger offsets are not cursors we made. */
const MAX_OFFSET = 100_000_000;

/**
 * Cursors of the first offsets, each made once: every answer of a connection names the same
 * ones again (a page of 20 songs, 20 cursors), and encoding them was a visible share of a page
 * answered from held records.
 */
const CURSORS_KEPT = 4096;
const keptCursors = new Array<string | undefined>(CURSORS_KEPT);

const cursorOf = (offset: number): string =>
  Buffer.from(`${CURSOR_PREFIX}${offset}`).toString('base64url');

export function offsetToCursor(offset: number): string {
  if (offset < 0 || offset >= CURSORS_KEPT) return cursorOf(offset);
  keptCursors[offset] ??= cursorOf(offset);
  return keptCursors[offset];
}

export function cursorToOffset(cursor: string, name: string): number {
  const decoded = cursor.length <= 64 ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^offset:(0|[1-9]\d{0,8})$/.exec(decoded);
  const offset = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(offset) || offset > MAX_OFFSET || offsetToCursor(offset) !== cursor) {
    throw badUserInput(`"${name}" is not a cursor of this connection`, name);
  }
  return offset;
}

/** The four arguments, checked; offsets are those the cursors name. */
export interface WindowRequest {
  readonly first: number | null;
  readonly last: number | null;
  readonly afterOffset: number | null;
  readonly beforeOffset: number | null;
}

/** Validates the four arguments; throws BAD_USER_INPUT before any upstream call. */
export function windowRequest(args: ConnectionArgs, maxSize = MAX_PAGE_SIZE): WindowRequest {
  for (const name of ['first', 'last'] as const) {
    const value = args[name];
    if (value != null && (value < 0 || value > maxSize)) {
      throw badUserInput(`"${name}" must be between 0 and ${maxSize}`, name);
    }
  }
  return {
    first: args.first ?? null,
    last: args.last ?? null,
    afterOffset: args.after == null ? null : cursorToOffset(args.after, 'after'),
    beforeOffset: args.before == null ? null : cursorToOffset(args.before, 'before'),
  };
}

/** The [start, end) slice a window asks for, given as much of the total as is known. */
function windowBounds(request: WindowRequest, total: number): { start: number; end: number } {
  // A cursor at or past the end names no item of the list: an empty window at the end, either way.
  if ((request.afterOffset ?? -1) >= total || (request.beforeOffset ?? -1) >= total)
    return { start: total, end: total };
  let start = request.afterOffset === null ? 0 : request.afterOffset + 1;
  let end = Math.max(start, Math.min(request.beforeOffset ?? total, total));
  if (request.first !== null) end = Math.min(end, start + request.first);
  if (request.last !== null) start = Math.max(start, end - request.last);
  // Neither size given: a default-sized page, next to the cursor the client did give.
  if (request.first === null && request.last === null) {
    if (request.beforeOffset !== null && request.afterOffset === null)
      start = Math.max(start, end - DEFAULT_CONNECTION_SIZE);
    else end = Math.min(end, start + DEFAULT_CONNECTION_SIZE);
  }
  return { start, end: Math.max(start, end) };
}

/** `slots`: the window's items by position; undefined where the upstream's record was unreadable. */
function connectionOf<T, E extends Edge<unknown>>(
  slots: readonly (T | undefined)[],
  start: number,
  total: number,
  toEdge: (item: T, cursor: string) => E,
): Connection<E> {
  const edges: E[] = [];
  slots.forEach((item, index) => {
    if (item !== undefined) edges.push(toEdge(item, offsetToCursor(start + index)));
  });
  return {
    edges,
    totalCount: total,
    pageInfo: {
      hasPreviousPage: start > 0,
      hasNextPage: start + slots.length < total,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

/** A connection over a list the gateway already holds whole (e.g. all songs of an artist). */
export function arrayConnection<T>(
  request: WindowRequest,
  items: readonly T[],
): Connection<Edge<T>> {
  const { start, end } = windowBounds(request, items.length);
  return connectionOf(
    items.slice(start, end),
    start,
    items.length,
    (node, cursor): Edge<T> => ({ cursor, node }),
  );
}

/** A paginated upstream list (one filter) as a connection reads it. */
export interface PagedList<T> {
  /** Page `page` (1-based) of MAX_PAGE_SIZE items. */
  page(page: number): Promise<Page<T>>;
  /** The list's length when a page of it has already told it; never calls the upstream. */
  knownTotal(): Promise<number | undefined>;
}

/** A connection over a paginated upstream list; `toEdge` may add fields to each edge. */
export async function pagedConnection<T, E extends Edge<unknown>>(
  args: ConnectionArgs,
  list: PagedList<T>,
  toEdge: (item: T, cursor: string) => E,
  onDropped: (dropped: readonly DroppedRecord[]) => void,
): Promise<Connection<E>> {
  const request = windowRequest(args);
  const pageOf = (offset: number) => Math.floor(offset / MAX_PAGE_SIZE) + 1;

  // Where a window from a cursor or from the end lies depends on the list's length: known, it
  // picks the pages to read, and a window past the end reads none, however far the cursor points.
  const fromCursorOrEnd =
    request.afterOffset !== null || request.beforeOffset !== null || request.last !== null;
  let known = fromCursorOrEnd ? await list.knownTotal() : undefined;
  // Counting back from the end needs the length first; page 1 tells it (and is often needed anyway).
  if (known === undefined && request.last !== null && request.beforeOffset === null)
    known = (await list.page(1)).total;

  const wanted = windowBounds(request, known ?? Number.POSITIVE_INFINITY);
  if (known !== undefined && wanted.end <= wanted.start)
    return connectionOf([], wanted.start, known, toEdge);
  const firstPage = pageOf(wanted.start);
  const lastPage = wanted.end > wanted.start ? pageOf(wanted.end - 1) : firstPage;
  const pages = await Promise.all(
    Array.from({ length: lastPage - firstPage + 1 }, (_, index) => list.page(firstPage + index)),
  );
  const total = pages[0]?.total ?? 0;

  const { start, end } = windowBounds(request, total);
  const offsetOfLoaded = (firstPage - 1) * MAX_PAGE_SIZE;
  const loaded = pages.flatMap(slotsOf);
  const from = start - offsetOfLoaded;
  // Before the pages read only if the length changed since it was learnt: no items rather than wrong ones.
  const slots = from < 0 ? [] : loaded.slice(from, end - offsetOfLoaded);
  const dropped: DroppedRecord[] = [];
  slots.forEach((slot, index) => {
    if (slot === undefined && from + index < loaded.length) {
      const pageIndex = Math.floor((from + index) / MAX_PAGE_SIZE);
      const reason =
        pages[pageIndex]?.dropped.find((d) => d.index === (from + index) % MAX_PAGE_SIZE)?.reason ??
        '';
      dropped.push({ index: start + index, reason });
    }
  });
  onDropped(dropped);
  return connectionOf(slots, start, total, toEdge);
}

/** A page's records at their upstream positions, with a hole where one was left out. */
function slotsOf<T>(page: Page<T>): (T | undefined)[] {
  const slots: (T | undefined)[] = [];
  const droppedAt = new Set(page.dropped.map((d) => d.index));
  let next = 0;
  for (let index = 0; next < page.items.length || droppedAt.has(index); index++) {
    slots.push(droppedAt.has(index) ? undefined : page.items[next++]);
  }
  return slots;
}
