// Hive Gateway's own configuration for the peer: nothing but the supergraph.
// Every other option stays at Hive Gateway 2.15's default: no response cache,
// no upstream HTTP cache plugin, no JIT, masked errors, one process (no --fork).
// (Without this file the CLI would load mesh.config.ts, which holds no gatewayConfig.)
import { defineConfig } from '@graphql-hive/gateway';

export const gatewayConfig = defineConfig({
  supergraph: './supergraph.graphql',
});
