/**
 * Persisted operations: a client may send a hash instead of the query text.
 *
 * - Trusted documents: `documentId` (body field or GET parameter, as
 *   graphql-codegen's client preset sends it; `sha256:` prefix optional)
 *   names a document of the manifest (`{ "<sha256>": "<query>" }`).
 * - Automatic Persisted Queries (Apollo's protocol): a hash alone in
 *   `extensions.persistedQuery.sha256Hash` runs the query registered under it;
 *   an unknown hash answers PersistedQueryNotFound, and the client sends query
 *   and hash once, which registers it (the hash is checked, so nobody can
 *   register a document under someone else's hash).
 *
 * In `allow-list` mode only manifest documents run: query text is refused and
 * nothing is registered. Lookups are done by @graphql-yoga/plugin-persisted-operations.
 */
import { readFileSync } from 'node:fs';
import { usePersistedOperations as useYogaPersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { sha256 } from '../../digest.js';
import {
  missingQuery,
  persistedQueryHashMismatch,
  persistedQueryNotFound,
  persistedQueryOnly,
} from '../../http-errors.js';
import { DEFAULT_PERSISTED_OPERATIONS_MODE } from '../../setting-defaults.js';

export type PersistedOperationsMode = 'apq' | 'allow-list';

export const DEFAULT_APQ_MAX_ENTRIES = 1_000;

const SHA256_HEX = /^[0-9a-f]{64}$/;

export interface PersistedOperationsOptions {
  /** `apq`: any query, plus manifest ids and APQ. `allow-list`: manifest ids only. */
  readonly mode?: PersistedOperationsMode;
  /** The trusted-documents manifest, `{ "<sha256>": "<query>" }`. */
  readonly manifest?: Readonly<Record<string, string>>;
  /** Registered APQ documents kept (least recently used go first). */
  readonly apqMaxEntries?: number;
}

/** Reads a manifest; with `required`, a missing file is an error rather than an empty manifest. */
export function loadManifest(path: string, required: boolean): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (!required && (error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`persisted-documents manifest cannot be read: ${path}`);
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`persisted-documents manifest must be an object of hash to query: ${path}`);
  }
  // Null prototype: a hash such as `__proto__` is an ordinary key, never the prototype.
  const manifest: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [hash, query] of Object.entries(parsed)) {
    if (typeof query !== 'string')
      throw new Error(`persisted-documents manifest: ${hash} is not a query string`);
    manifest[hash.toLowerCase()] = query;
  }
  return manifest;
}

function apqHashOf(params: GraphQLParams): string | null {
  const persisted = (
    params.extensions as
      | { persistedQuery?: { version?: unknown; sha256Hash?: unknown } }
      | undefined
  )?.persistedQuery;
  return persisted?.version === 1 && typeof persisted.sha256Hash === 'string'
    ? persisted.sha256Hash
    : null;
}

/** The id a client sent: `documentId` (trusted documents) or the APQ hash. */
function operationIdOf(params: GraphQLParams, request: Request): string | null {
  const fromBody = (params as GraphQLParams & { documentId?: unknown }).documentId;
  const documentId =
    typeof fromBody === 'string'
      ? fromBody
      : request.method === 'GET'
        ? new URL(request.url).searchParams.get('documentId')
        : null;
  const id = documentId ?? apqHashOf(params);
  return id === null ? null : id.replace(/^sha256:/i, '').toLowerCase();
}

export function usePersistedOperations({
  mode = DEFAULT_PERSISTED_OPERATIONS_MODE,
  manifest = {},
  apqMaxEntries = DEFAULT_APQ_MAX_ENTRIES,
}: PersistedOperationsOptions = {}): Plugin {
  const registered = new LRUCache<string, string>({ max: apqMaxEntries });
  // A Map, not the object: ids come from clients, and `__proto__` or `constructor` must find nothing.
  const trusted = new Map(
    Object.entries(manifest).map(([hash, query]) => [hash.toLowerCase(), query]),
  );
  const lookup = useYogaPersistedOperations({
    allowArbitraryOperations: mode !== 'allow-list',
    extractPersistedOperationId: operationIdOf,
    getPersistedOperation: (id) =>
      trusted.get(id) ?? (mode === 'apq' ? registered.get(id) : undefined) ?? null,
    customErrors: {
      notFound: () => (mode === 'allow-list' ? persistedQueryOnly() : persistedQueryNotFound()),
      persistedQueryOnly: () => persistedQueryOnly(),
      keyNotFound: () => (mode === 'allow-list' ? persistedQueryOnly() : missingQuery()),
    },
  });
  return {
    onPluginInit({ addPlugin }) {
      // Added after this plugin, so a query sent with its hash is registered before the lookup runs.
      addPlugin(lookup);
    },
    onParams({ params }) {
      const hash = apqHashOf(params);
      if (mode !== 'apq' || hash === null || typeof params.query !== 'string') return;
      if (!SHA256_HEX.test(hash) || sha256(params.query) !== hash)
        throw persistedQueryHashMismatch();
      registered.set(hash, params.query);
    },
  };
}
