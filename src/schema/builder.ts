/**
 * The one Pothos SchemaBuilder: context, scalars, nullability defaults and
 * plugins are declared here once; each `schema/<family>.ts` adds its types.
 */
import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import type { GatewayContext } from './context.js';
import { badUserInput } from './errors.js';
import { READS_NOTHING } from './field-reads.js';
import { artistSlugArg, slugArg } from './inputs.js';
import { nodeLoaders } from './refs.js';
import UpstreamPlugin from './upstream-plugin.js';

const NODE_TYPES = ['Artist', 'Song', 'Album'];

export const builder = new SchemaBuilder<{
  Context: GatewayContext;
  Scalars: {
    SafeInt: { Input: number; Output: number };
    Date: { Input: string; Output: string };
    URL: { Input: URL; Output: string };
  };
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
}>({
  plugins: [RelayPlugin, SimpleObjectsPlugin, UpstreamPlugin],
  defaultFieldNullability: false,
  relay: {
    nodesOnConnection: {
      description: 'The nodes of the edges, for clients that do not need cursors.',
      upstream: { relay: 'nodes' },
    },
    edgesFieldOptions: {
      description: 'The items of this page, each with its cursor.',
      upstream: { relay: 'edges' },
    },
    pageInfoFieldOptions: {
      description: 'Where this page sits in the whole list.',
      upstream: READS_NOTHING,
    },
    nodeTypeOptions: { description: 'An object with a global id, refetchable with `node(id:)`.' },
    pageInfoTypeOptions: { description: 'Relay pagination state of a connection page.' },
    nodeQueryOptions: {
      description:
        'Fetches an Artist, Song or Album by its global id; null when it does not exist.',
      args: { id: { description: 'A global id, as returned in an `id` field.' } },
      // The record of an Artist, Song or Album (`loadOne` of each node type).
      upstream: { calls: 1, knows: 'record' },
      resolve: (_, { id }, __, ___, resolveNode) => resolveNode(nodeId(id)),
    },
    nodesQueryOptions: {
      description:
        'Fetches several objects by global id, in order; null for each that does not exist.',
      args: { ids: { description: 'Global ids, as returned in `id` fields.' } },
      upstream: { calls: { lengthOf: 'ids' }, size: { lengthOf: 'ids' }, knows: 'record' },
      // One item at a time (Pothos' resolveNodes settles all ids together), so that an unknown
      // or failing id nulls only its own item, with its error at that index.
      resolve: (_, { ids }, context) =>
        ids.map(async (id) => {
          const { typename, id: slug } = nodeId(id);
          const slugOf = typename === 'Artist' ? artistSlugArg : slugArg;
          return nodeLoaders[typename as keyof typeof nodeLoaders](slugOf(slug, 'ids'), context);
        }),
    },
    idFieldOptions: { description: 'Opaque Relay global id; `node(id:)` refetches the object.' },
    cursorFieldOptions: { description: 'Opaque cursor of this edge, for `after`/`before`.' },
    nodeFieldOptions: {
      description: 'The item at this edge.',
      upstream: { relay: 'node' },
    },
    hasNextPageFieldOptions: { description: 'Whether items follow this page.' },
    hasPreviousPageFieldOptions: { description: 'Whether items precede this page.' },
    startCursorFieldOptions: { description: 'Cursor of the first edge of this page.' },
    endCursorFieldOptions: { description: 'Cursor of the last edge of this page.' },
    firstArgOptions: { description: 'Number of items after `after` (0 to 100; default 20).' },
    afterArgOptions: { description: 'Cursor after which the page starts.' },
    lastArgOptions: { description: 'Number of items before `before` (0 to 100).' },
    beforeArgOptions: { description: 'Cursor before which the page ends.' },
  },
});

/** A decoded global id of a type that can be refetched; anything else is the client's mistake. */
function nodeId(id: { typename: string; id: string }): { typename: string; id: string } {
  if (!NODE_TYPES.includes(id.typename)) {
    throw badUserInput(
      `Not a global id of an Artist, Song or Album: type "${id.typename.slice(0, 40)}"`,
      'id',
    );
  }
  return id;
}

builder.queryType({
  description:
    'Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts.',
});
