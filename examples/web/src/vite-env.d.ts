/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The gateway's GraphQL endpoint, baked in at build time (`?api=` overrides it at run time). */
  readonly VITE_GRAPHQL_URL?: string;
  /** A client API key for a gateway in pass-through mode (`?key=` overrides it at run time). */
  readonly VITE_API_KEY?: string;
}
