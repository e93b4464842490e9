/**
 * What each field reads from the upstream, declared once, on the field: the
 * `upstream` field option (a `FieldReads`, typed by the field's arguments;
 * upstream-plugin.ts puts it in `extensions.upstream`). The Artist, Song,
 * Album and ChartSummary types declare on themselves (`ObjectReads`) what a
 * parent may already hold of them, and which read loads the rest.
 *
 * The declarations are read back from the built schema: the cost estimate
 * (`upstream-cost.ts`) walks an operation through them, the cold fan-out
 * (`prefetch.ts`) starts the reads they name, and `schema.graphql` prints
 * them as IBM's `@cost`/`@listSize` (cost-directives.ts). The resolvers load
 * through the same reads (`bySlug`, `read`, `pages`), so estimate, prefetch
 * and resolver cannot drift apart. A field that declares nothing must be a
 * plain property read (Pothos `t.expose…`); test/field-reads.spec.ts holds
 * every field of the schema to that.
 */
import type { GraphQLField, GraphQLObjectType } from 'graphql';
import { MAX_PAGE_SIZE, type UpstreamRequest } from '../upstream/endpoints.js';
import type { Page } from '../upstream/records.js';
import { DEFAULT_CONNECTION_SIZE } from './connections.js';
import type { GatewayContext } from './context.js';
import { DEFAULT_LIST_LIMIT } from './inputs.js';

/** Arguments as the estimate reads them from an operation: literals and variables, unchecked. */
export type Args = Readonly<Record<string, unknown>>;

/** The names of `A`'s arguments whose values are numbers (any name where `A` names none). */
type NumberArgument<A> = string extends keyof A
  ? string
  : { [K in keyof A & string]-?: NonNullable<A[K]> extends number ? K : never }[keyof A & string];
/** The names of `A`'s arguments whose values are lists (any name where `A` names none). */
type ListArgument<A> = string extends keyof A
  ? string
  : {
      [K in keyof A & string]-?: NonNullable<A[K]> extends readonly unknown[] ? K : never;
    }[keyof A & string];

/**
 * As many as one number argument asks (`limit`), at most `max`, and `assumedSize` when it is
 * not given: IBM's `@listSize(slicingArguments:, assumedSize:)` (cost-directives.ts).
 */
export interface SlicedSize<A = Args> {
  readonly slicedBy: NumberArgument<A>;
  readonly assumedSize: number;
  readonly max: number;
}

/** As many as the items of a list argument (`nodes(ids:)`: one per id). */
export interface ListLength<A = Args> {
  readonly lengthOf: ListArgument<A>;
}

/** A count a field declares: a number, or one its arguments set. */
export type Count<A = Args> = number | SlicedSize<A> | ListLength<A>;

/**
 * What a parent holds of the Artist, Song, Album or ChartSummary it returns:
 * one of the levels that type declares (`ObjectReads`). `record` is all of it.
 */
export type Knows =
  | 'record' // the full record (root lookups, node(id:))
  | 'summary' // a list item: leaderboards, connections, search, tracks
  | 'link' // slug and name only (song.artist, album.artist, featured artists)
  | 'milestone' // slug, name, image, Afrobeats flag (milestone.artist)
  | 'lookup' // title and artist name only: found by search (milestone.song)
  | 'slug' // the slug only (song.album)
  | 'listed' // a chart summary from the chart list
  | 'position'; // a chart summary from an artist's chart positions (no week, no entry count)

/** A read: the upstream request it makes, from what its caller gives. */
export type Read = (...params: never) => UpstreamRequest<unknown>;

/**
 * What one field reads, per object it is selected on, and what it hands down.
 * `A` is the field's own arguments (the `upstream` field option is typed by
 * them: upstream-plugin.ts); the estimate reads them untyped (`Args`).
 */
export interface FieldReads<A = Args> {
  /**
   * The least its object must hold for this field (a level of the object's
   * type); more than the parent gave costs the read that loads it, once per
   * object however many fields need it. Absent: what any parent gives.
   * Fields that answer a key of their object's record take it from the key
   * (`recordReader`), so it follows what the resolver reads.
   */
  readonly needs?: Knows;
  /** The one read the field makes, from its arguments and its object. */
  readonly read?: Read;
  /**
   * The one read the field makes when it needs nothing but its object's slug
   * (and the request's settings): `artist(slug:)` starts it together with the
   * profile when the field is selected (prefetch.ts).
   */
  readonly bySlug?: (slug: string, context: GatewayContext) => UpstreamRequest<unknown>;
  /** A paginated upstream list, page by page (`connections.ts`): up to two pages, three counting from the end. */
  readonly pages?: (page: number, ...params: never) => UpstreamRequest<Page<unknown>>;
  /** The check the resolver makes of its arguments before it reads: throws to refuse them (it reads nothing then). */
  checkArgs?(args: A): unknown;
  /** Upstream calls the field makes itself, per object, where its read does not say (see `ownCalls`). */
  readonly calls?: number | ListLength<A>;
  /** Worst-case length of the list the field returns. */
  readonly size?: Count<A>;
  /** What the returned object already holds; `record` when not said. */
  readonly knows?: Knows;
  /** For a connection: what the nodes of its page hold (the page's length is `first`/`last`). */
  readonly connection?: Knows;
  /** Part of a Relay connection page: `edges`/`nodes` are its items, `node` the item of an edge. */
  readonly relay?: 'edges' | 'nodes' | 'node';
  /** Lengths of lists on the returned object that this field's arguments set (`chart(limit:)` → `entries`). */
  readonly childLists?: Readonly<Record<string, SlicedSize<A>>>;
}

/** One level of what a parent may hold of an object, and the read that loads it when the parent holds less. */
export interface ObjectLevel {
  readonly holds: Knows;
  /** Loads this level (and those below it); reads named by several levels are made once. */
  readonly loadedBy?: Read;
  /** The read is made once per request for every object of the type, not once per object. */
  readonly oncePerRequest?: boolean;
}

/** What a parent may hold of an object of this type, least first; the last is all of it. */
export interface ObjectReads {
  readonly levels: readonly ObjectLevel[];
  /**
   * The level the printed `@cost` weights assume a parent holds (cost-directives.ts): IBM's
   * directives weigh each field alone, so they cannot say that a field is free where the
   * parent already holds it. A field needing more is weighed the reads that load the rest.
   */
  readonly directivesAssume: Knows;
}

/**
 * The level of its type that first holds each key of an upstream record: what
 * a field answering that key needs (`recordReader`, record-fields.ts).
 */
export type KeyLevels<R> = { readonly [K in Exclude<keyof R, 'unreadable'>]-?: Knows };

declare module 'graphql' {
  interface GraphQLFieldExtensions<_TSource, _TContext, _TArgs> {
    /** What the field reads from the upstream (field-reads.ts). */
    upstream?: FieldReads;
  }
  interface GraphQLObjectTypeExtensions<_TSource, _TContext> {
    /** What parents may hold of such an object, and what loads the rest (field-reads.ts). */
    upstream?: ObjectReads;
  }
}

/** The declaration of a field that answers from what its object holds: it reads nothing. */
export const READS_NOTHING: { readonly [K in keyof FieldReads]?: never } = Object.freeze({});

/**
 * Lists whose length the upstream does not bound in its description: the
 * sizes assumed for them. Only lists with costly fields beneath matter.
 */
export const ASSUMED_LIST_SIZES = {
  /** Artist profile `topSongs`: "up to 10". */
  topSongs: 10,
  /** The search endpoint answers at most one page. */
  searchResults: MAX_PAGE_SIZE,
  /** An artist's milestone timeline. */
  timeline: 100,
  featuredArtists: 5,
  albumTracks: 40,
  /** Charts the upstream publishes, and so an artist's chart positions. */
  charts: 20,
} as const;

export const clamp = (value: unknown, max: number, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value)
    ? Math.min(Math.max(Math.trunc(value), 0), max)
    : fallback;

/** Items of a connection page, as `windowRequest` allows them. */
export const windowSize = (args: Args) => {
  const first = args.first == null ? null : clamp(args.first, MAX_PAGE_SIZE, 0);
  const last = args.last == null ? null : clamp(args.last, MAX_PAGE_SIZE, 0);
  if (first === null && last === null) return DEFAULT_CONNECTION_SIZE;
  return Math.max(first ?? 0, last ?? 0);
};

/**
 * Upstream pages `pagedConnection` reads: a window of up to 100 items spans
 * at most two pages of 100 (one when it starts at 0), and `last` without
 * `before` reads page 1 first for the total.
 */
const pagesRead = (args: Args) =>
  (args.after == null && args.before == null && args.last == null ? 1 : 2) +
  (args.last != null && args.before == null ? 1 : 0);

/** Entries of a leaderboard or trending list: `limit`, 20 by default, 100 at most. */
export const RANKING_SIZE = {
  slicedBy: 'limit',
  assumedSize: DEFAULT_LIST_LIMIT,
  max: MAX_PAGE_SIZE,
} as const satisfies SlicedSize;

export function listLength(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  return value == null ? 0 : 1;
}

/** The number a declared count stands for with these arguments. */
export function countOf(count: Count, args: Args): number {
  if (typeof count === 'number') return count;
  if ('lengthOf' in count) return listLength(args[count.lengthOf]);
  return clamp(args[count.slicedBy], count.max, count.assumedSize);
}

/**
 * Upstream calls a field makes itself, per object: `calls` when it says,
 * else what its read makes (the pages of a connection; one for one read).
 */
export function ownCalls(reads: FieldReads | undefined, args: Args): number {
  if (reads === undefined) return 0;
  if (reads.calls !== undefined) return countOf(reads.calls, args);
  if (reads.pages !== undefined) return pagesRead(args);
  return reads.read !== undefined || reads.bySlug !== undefined ? 1 : 0;
}

/** The lengths of the lists on the returned object that the field's arguments set. */
export function childListSizes(
  reads: FieldReads | undefined,
  args: Args,
): Readonly<Record<string, number>> | undefined {
  if (reads?.childLists === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(reads.childLists).map(([name, size]) => [name, countOf(size, args)]),
  );
}

/** The field's declaration, if it has one. */
export function fieldReadsOf(field: GraphQLField<unknown, unknown>): FieldReads | undefined {
  return field.extensions.upstream;
}

/** The type's levels, if it declares them. */
export function objectReadsOf(type: GraphQLObjectType): ObjectReads | undefined {
  return type.extensions.upstream;
}
