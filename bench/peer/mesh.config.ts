import { defineConfig } from '@graphql-mesh/compose-cli';
import { loadOpenAPISubgraph } from '@omnigraph/openapi';

export const composeConfig = defineConfig({
  output: 'supergraph.graphql',
  subgraphs: [
    {
      sourceHandler: loadOpenAPISubgraph('Upstream', {
        source: './upstream.openapi.yaml',
        endpoint: '{env.UPSTREAM_URL}/api/v1',
        operationHeaders: {
          Authorization: 'Bearer {env.UPSTREAM_API_KEY}',
        },
      }),
    },
  ],
  additionalTypeDefs: /* GraphQL */ `
    extend type RankedArtist {
      history: [ArtistSnapshot]
        @resolveTo(
          sourceName: "Upstream"
          sourceTypeName: "Query"
          sourceFieldName: "artistHistory"
          requiredSelectionSet: "{ slug }"
          sourceArgs: { slug: "{root.slug}" }
        )
    }
  `,
});
