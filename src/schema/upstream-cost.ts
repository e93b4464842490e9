/**
 * Worst-case upstream calls of an operation, computed from its AST before it
 * runs. It knows what the resolvers of this schema do (see `connections.ts`
 * and `refs.ts`): every field that can call the upstream has a cost, counted
 * once per object it is selected on, and multiplied by the sizes of the lists
 * above it (`first`, `limit`, their defaults and maxima).
 *
 * The one non-obvious part is what a parent already knows about an Artist,
 * Song or Album (`Knows`): a leaderboard item carries the artist summary, so
 * `name` is free there, but `followers` needs the profile; an artist reached
 * from `song.artist` carries only slug and name. The full record of an object
 * is loaded at most once per object, however many of its fields need it, so
 * that load is counted once per object, not once per field.
 *
 * The estimate is an upper bound: it ignores the request's de-duplication
 * (aliases of one field, one artist reached twice) and the shared cache,
 * which only ever lower the real figure (reported next to it as
 * `extensions.cost.upstreamCalls`).
 */
import {
  type DocumentNode,
  type FieldNode,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  isAbstractType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { MAX_CHART_SIZE, MAX_PAGE_SIZE } from '../upstream/endpoints.js';
import { DEFAULT_CONNECTION_SIZE } from './connections.js';
import { DEFAULT_LIST_LIMIT } from './inputs.js';

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

/** What the parent already holds about the Artist, Song or Album it returns. */
type Knows =
  | 'record' // the full record (root lookups, node(id:))
  | 'summary' // a list item: leaderboards, connections, search, tracks
  | 'link' // slug and name only (song.artist, album.artist, featured artists)
  | 'milestone' // slug, name, image, Afrobeats flag (milestone.artist)
  | 'lookup' // title and artist name only: found by search (milestone.song)
  | 'slug' // the slug only (song.album)
  | 'listed' // a chart summary from the chart list
  | 'position'; // a chart summary from an artist's chart positions (no week, no entry count)

type Args = Readonly<Record<string, unknown>>;

interface FieldCost {
  /** Upstream calls the field makes itself, per parent object. */
  readonly calls?: number | ((args: Args) => number);
  /** Worst-case length of the list the field returns. */
  readonly size?: number | ((args: Args) => number);
  /** What the returned object already carries. */
  readonly knows?: Knows;
  /** For connections: length of `edges`/`nodes`, and what their nodes carry. */
  readonly connection?: { readonly size: (args: Args) => number; readonly knows: Knows };
  /** Lengths of lists on the returned object that this field's arguments set (`chart(limit:)` → `entries`). */
  readonly childLists?: (args: Args) => Readonly<Record<string, number>>;
}

const clamp = (value: unknown, max: number, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value)
    ? Math.min(Math.max(Math.trunc(value), 0), max)
    : fallback;

/** Items of a connection page, as `windowRequest` allows them. */
const windowSize = (args: Args) => {
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

const connection = (knows: Knows): FieldCost => ({
  calls: pagesRead,
  connection: { size: windowSize, knows },
});
const rankedList: FieldCost = {
  calls: 1,
  size: (args) => clamp(args.limit, MAX_PAGE_SIZE, DEFAULT_LIST_LIMIT),
};
const one = { calls: 1 } as const;

/** The cost table: `Type.field` → what it costs. Fields not listed cost nothing themselves. */
export const FIELD_COSTS: Readonly<Record<string, Readonly<Record<string, FieldCost>>>> = {
  Query: {
    artist: { calls: 1, knows: 'record' },
    song: { calls: 1, knows: 'record' },
    album: { calls: 1, knows: 'record' },
    node: { calls: 1, knows: 'record' },
    nodes: {
      calls: (args) => listLength(args.ids),
      size: (args) => listLength(args.ids),
      knows: 'record',
    },
    searchSongs: { calls: 1, size: ASSUMED_LIST_SIZES.searchResults, knows: 'summary' },
    artists: connection('summary'),
    albums: connection('summary'),
    recentMilestones: connection('record'),
    artistsByTier: connection('summary'),
    songsByTier: connection('summary'),
    topArtistsByStreams: rankedList,
    topArtistsByListeners: rankedList,
    topSongs: rankedList,
    trendingArtists: rankedList,
    trendingSongs: rankedList,
    charts: { calls: 1, size: ASSUMED_LIST_SIZES.charts, knows: 'listed' },
    chart: {
      calls: 1,
      childLists: (args) => ({ entries: clamp(args.limit, MAX_CHART_SIZE, MAX_CHART_SIZE) }),
    },
  },
  ChartEntry: { song: { calls: 1, knows: 'summary' } },
  Artist: {
    songs: { calls: 1, connection: { size: windowSize, knows: 'summary' } },
    history: one,
    milestones: { calls: 1, size: ASSUMED_LIST_SIZES.timeline },
    streamMilestone: one,
    listenerMilestone: one,
    topSongs: { size: ASSUMED_LIST_SIZES.topSongs, knows: 'summary' },
    chartPositions: { size: ASSUMED_LIST_SIZES.charts },
  },
  ArtistChartPosition: { chart: { knows: 'position' } },
  Song: {
    artist: { knows: 'link' },
    album: { knows: 'slug' },
    featuredArtists: { size: ASSUMED_LIST_SIZES.featuredArtists, knows: 'link' },
    history: one,
    streamMilestone: one,
  },
  Album: {
    artist: { knows: 'link' },
    tracks: { size: ASSUMED_LIST_SIZES.albumTracks },
  },
  Track: { song: { knows: 'summary' } },
  Milestone: { artist: { knows: 'milestone' }, song: { knows: 'lookup' } },
  RankedArtist: { artist: { knows: 'summary' } },
  RankedSong: { song: { knows: 'summary' } },
  TrendingArtist: { artist: { knows: 'summary' } },
  TrendingSong: { song: { knows: 'summary' } },
};

const ARTIST_SUMMARY = [
  'name',
  'imageUrl',
  'country',
  'isAfrobeats',
  'totalStreams',
  'dailyStreams',
  'monthlyListeners',
];
const SONG_RECORD_ONLY = ['durationMs', 'featuredArtists'];
const ALBUM_RECORD_ONLY = ['tracks'];

/** Fields an object answers without loading anything, by what its parent knows. */
const FREE_FIELDS: Readonly<Record<string, Partial<Record<Knows, readonly string[]>>>> = {
  Artist: {
    summary: ARTIST_SUMMARY,
    link: ['name'],
    milestone: ['name', 'imageUrl', 'isAfrobeats'],
    slug: [],
  },
};

/** Fields with calls of their own, which need no record (only the slug) on an Artist. */
const ARTIST_OWN = [
  'id',
  'slug',
  'songs',
  'history',
  'milestones',
  'streamMilestone',
  'listenerMilestone',
];

/**
 * Upstream calls to load what an object's selected fields need beyond what
 * its parent gave: 0, 1 (the record, or the search that finds a song), or 2
 * (search, then the song record).
 */
function recordLoads(typeName: string, knows: Knows, selected: ReadonlySet<string>): number {
  if (knows === 'record') return 0;
  const needs = (fields: readonly string[]) => fields.some((name) => selected.has(name));
  const beyond = (free: readonly string[]) =>
    [...selected].some((name) => !name.startsWith('__') && !free.includes(name));
  switch (typeName) {
    case 'Artist':
      return beyond([...ARTIST_OWN, ...(FREE_FIELDS.Artist?.[knows] ?? [])]) ? 1 : 0;
    case 'Song':
      if (knows === 'lookup')
        return (beyond(['title']) ? 1 : 0) + (needs(SONG_RECORD_ONLY) ? 1 : 0);
      return needs(SONG_RECORD_ONLY) ? 1 : 0;
    case 'Album':
      if (knows === 'slug') return beyond(['id', 'slug']) ? 1 : 0;
      return needs(ALBUM_RECORD_ONLY) ? 1 : 0;
    case 'ChartSummary':
      return knows === 'position' && needs(['latestWeek', 'totalEntries']) ? 1 : 0;
    default:
      return 0;
  }
}

function listLength(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  return value == null ? 0 : 1;
}

export interface CostEstimate {
  /** Worst-case upstream calls of the operation. */
  readonly upstreamCalls: number;
}

interface Walk {
  readonly schema: GraphQLSchema;
  readonly document: DocumentNode;
  readonly variables: Args;
  /** The chart list is read once per request, whoever needs it. */
  chartListNeeded: boolean;
}

/** Estimates the operation `operationName` of `document` with the client's raw `variables`. */
export function estimateUpstreamCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  rawVariables: unknown,
): CostEstimate {
  const operation = getOperationAST(document, operationName ?? undefined);
  const root = operation == null ? undefined : schema.getRootType(operation.operation);
  if (operation == null || root == null) return { upstreamCalls: 0 };

  const variables: Record<string, unknown> = {};
  const given =
    typeof rawVariables === 'object' && rawVariables !== null ? (rawVariables as Args) : {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    variables[name] =
      name in given
        ? given[name]
        : definition.defaultValue
          ? literalValue(definition.defaultValue, {})
          : undefined;
  }
  const walk: Walk = { schema, document, variables, chartListNeeded: false };
  const calls = selectionCost(walk, operation.selectionSet, root, 'record', undefined, undefined);
  return { upstreamCalls: calls + (walk.chartListNeeded ? 1 : 0) };
}

/** Cost of one object of `type` with this selection, given what its parent knows. */
function selectionCost(
  walk: Walk,
  selectionSet: SelectionSetNode,
  type: GraphQLNamedType,
  knows: Knows,
  connectionOf: { size: number; knows: Knows } | undefined,
  lists: Readonly<Record<string, number>> | undefined,
): number {
  if (isAbstractType(type)) {
    // The most expensive of the types the object may turn out to be.
    return Math.max(
      0,
      ...walk.schema
        .getPossibleTypes(type)
        .map((possible) => selectionCost(walk, selectionSet, possible, knows, connectionOf, lists)),
    );
  }
  if (!isObjectType(type)) return 0;

  const fields = collectFields(walk, selectionSet, type.name);
  const selected = new Set(fields.map((field) => field.name.value));
  const loads = recordLoads(type.name, knows, selected);
  if (type.name === 'ChartSummary' && loads > 0) walk.chartListNeeded = true;
  let total = type.name === 'ChartSummary' ? 0 : loads;

  for (const field of fields) {
    const name = field.name.value;
    if (name.startsWith('__')) continue;
    const definition = type.getFields()[name];
    if (definition === undefined) continue;
    const args = argumentsOf(walk, field);
    const cost = FIELD_COSTS[type.name]?.[name];
    const own = typeof cost?.calls === 'function' ? cost.calls(args) : (cost?.calls ?? 0);

    // Connection plumbing: `edges`/`nodes` take the page size, `node` what the items carry.
    let size = typeof cost?.size === 'function' ? cost.size(args) : (cost?.size ?? 1);
    let childKnows: Knows = cost?.knows ?? 'record';
    let childConnection: { size: number; knows: Knows } | undefined;
    if (cost?.connection !== undefined) {
      childConnection = { size: cost.connection.size(args), knows: cost.connection.knows };
    } else if (connectionOf !== undefined && (name === 'edges' || name === 'nodes')) {
      size = connectionOf.size;
      childKnows = connectionOf.knows;
      childConnection = name === 'edges' ? connectionOf : undefined;
    } else if (connectionOf !== undefined && name === 'node') {
      childKnows = connectionOf.knows;
    } else if (lists?.[name] !== undefined) {
      size = lists[name];
    } else if (cost?.size === undefined && isList(definition.type)) {
      // A list the table does not size has nothing costly beneath it (checked by a test).
      size = 1;
    }

    const child = field.selectionSet
      ? selectionCost(
          walk,
          field.selectionSet,
          getNamedType(definition.type),
          childKnows,
          childConnection,
          cost?.childLists?.(args),
        )
      : 0;
    total += own + size * child;
  }
  return total;
}

function isList(type: GraphQLOutputType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}

/** The fields selected on an object of `typeName`, fragments merged in (directives ignored: worst case). */
function collectFields(
  walk: Walk,
  selectionSet: SelectionSetNode,
  typeName: string,
  seen = new Set<string>(),
): FieldNode[] {
  const fields: FieldNode[] = [];
  const applies = (condition: string | undefined) => {
    if (condition === undefined || condition === typeName) return true;
    const conditionType = walk.schema.getType(condition);
    const objectType = walk.schema.getType(typeName);
    return (
      conditionType !== undefined &&
      isAbstractType(conditionType) &&
      isObjectType(objectType) &&
      walk.schema.isSubType(conditionType, objectType)
    );
  };
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      fields.push(selection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (applies(selection.typeCondition?.name.value)) {
        fields.push(...collectFields(walk, selection.selectionSet, typeName, seen));
      }
    } else {
      const name = selection.name.value;
      if (seen.has(name)) continue; // validation refuses fragment cycles; this keeps the walk finite regardless
      seen.add(name);
      const fragment = walk.document.definitions.find(
        (definition) =>
          definition.kind === Kind.FRAGMENT_DEFINITION && definition.name.value === name,
      );
      if (
        fragment?.kind === Kind.FRAGMENT_DEFINITION &&
        applies(fragment.typeCondition.name.value)
      ) {
        fields.push(...collectFields(walk, fragment.selectionSet, typeName, seen));
      }
    }
  }
  return fields;
}

function argumentsOf(walk: Walk, field: FieldNode): Args {
  const args: Record<string, unknown> = {};
  for (const argument of field.arguments ?? [])
    args[argument.name.value] = literalValue(argument.value, walk.variables);
  return args;
}

/** A literal or variable value, as far as sizes need it: numbers, lists, null. */
function literalValue(node: ValueNode, variables: Args): unknown {
  switch (node.kind) {
    case Kind.VARIABLE:
      return variables[node.name.value];
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.LIST:
      return node.values.map((value) => literalValue(value, variables));
    case Kind.NULL:
      return null;
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.BOOLEAN:
      return node.value;
    default:
      return undefined;
  }
}
