/**
 * Limits on the shape of a document, checked at parse and validation time
 * (graphql-armor): depth, aliases, directives and tokens. Introspection stays
 * on (GraphiQL and codegen need it) unless `introspection` is false.
 *
 * graphql-armor's own cost limit is off: it weighs fields, not upstream
 * calls, and `use-upstream-cost-limit.ts` measures what matters here. Field
 * suggestions ("Did you mean …?") are kept while introspection is on, since
 * they reveal nothing introspection does not; they go when introspection does,
 * or they would leak the schema one field name at a time.
 */
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { NoSchemaIntrospectionCustomRule, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { queryTooComplex } from '../../http-errors.js';
import {
  DEFAULT_INTROSPECTION,
  DEFAULT_MAX_ALIASES,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_DIRECTIVES,
  DEFAULT_MAX_TOKENS,
} from '../../setting-defaults.js';

export interface ShapeLimitOptions {
  /** Deepest field nesting, fragments flattened (`__schema` introspection is not counted). */
  readonly maxDepth?: number;
  readonly maxAliases?: number;
  readonly maxDirectives?: number;
  /** Lexical tokens of the document: bounds the work of parsing before anything else runs. */
  readonly maxTokens?: number;
  /** Bracket nesting checked before parsing (use-nesting-limit.ts). */
  readonly maxNesting?: number;
  readonly introspection?: boolean;
}

export function useShapeLimits({
  maxDepth = DEFAULT_MAX_DEPTH,
  maxAliases = DEFAULT_MAX_ALIASES,
  maxDirectives = DEFAULT_MAX_DIRECTIVES,
  maxTokens = DEFAULT_MAX_TOKENS,
  introspection = DEFAULT_INTROSPECTION,
}: ShapeLimitOptions = {}): Plugin[] {
  for (const [name, value] of Object.entries({ maxDepth, maxAliases, maxDirectives, maxTokens })) {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new Error(`${name} must be a non-negative integer: ${value}`);
  }
  // Armor throws its own GraphQLError (from graphql's CommonJS build) out of the validation rule;
  // reporting ours instead makes it an ordinary validation error with a stable code.
  const report = {
    propagateOnRejection: false,
    onReject: [
      (context: ValidationContext | null, error: Error) =>
        context?.reportError(queryTooComplex(error.message)),
    ],
  };
  const armor = EnvelopArmorPlugin({
    maxDepth: { n: maxDepth, flattenFragments: true, ignoreIntrospection: true, ...report },
    // armor leaves `__typename` aliases out by default; 600 of them cost as much to answer as any other.
    maxAliases: { n: maxAliases, allowList: [], ...report },
    maxDirectives: { n: maxDirectives, ...report },
    maxTokens: { n: maxTokens },
    costLimit: { enabled: false },
    blockFieldSuggestion: { enabled: !introspection },
  });
  const introspectionRule: Plugin = {
    onValidate({ addValidationRule }) {
      if (!introspection) addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
  // Listed, not added from onPluginInit: armor adds its own plugins from there, one level deep only.
  return [armor as Plugin, introspectionRule];
}
