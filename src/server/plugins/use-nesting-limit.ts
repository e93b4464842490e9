/**
 * Bounds the bracket nesting of a document before it is parsed. graphql-js
 * parses values and selections recursively, so a 2,000-deep list literal
 * overflows the stack before the token limit (graphql-armor) can count to
 * its end. This scan is linear, iterative and skips strings and comments.
 */
import type { Plugin } from 'graphql-yoga';
import { queryTooComplex } from '../../http-errors.js';

/** Far above any real document (depth limit 10, a few input objects), far below a stack overflow. */
export const DEFAULT_MAX_NESTING = 64;

export function useNestingLimit(maxNesting = DEFAULT_MAX_NESTING): Plugin {
  if (!Number.isSafeInteger(maxNesting) || maxNesting < 1) {
    throw new Error(`maxNesting must be a positive integer: ${maxNesting}`);
  }
  return {
    onParams({ params }) {
      if (typeof params.query === 'string' && nestingExceeds(params.query, maxNesting)) {
        throw queryTooComplex(`Nesting limit of ${maxNesting} brackets exceeded.`);
      }
    },
  };
}

/** Whether `{`, `[` and `(` outside strings and comments nest deeper than `max`. */
export function nestingExceeds(source: string, max: number): boolean {
  let depth = 0;
  let i = 0;
  while (i < source.length) {
    const char = source[i];
    if (char === '#') {
      while (i < source.length && source[i] !== '\n' && source[i] !== '\r') i += 1;
    } else if (source.startsWith('"""', i)) {
      i += 3;
      // Inside a block string only \""" escapes the delimiter.
      while (i < source.length && !source.startsWith('"""', i))
        i += source.startsWith('\\"""', i) ? 4 : 1;
      i += 2;
    } else if (char === '"') {
      i += 1;
      while (i < source.length && source[i] !== '"' && source[i] !== '\n')
        i += source[i] === '\\' ? 2 : 1;
    } else if (char === '{' || char === '[' || char === '(') {
      depth += 1;
      if (depth > max) return true;
    } else if (char === '}' || char === ']' || char === ')') {
      depth = Math.max(0, depth - 1);
    }
    i += 1;
  }
  return false;
}
