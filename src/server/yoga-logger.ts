/**
 * Yoga's logger over pino. Yoga logs every error its mask replaced at `error` level with its
 * stack, so each unknown slug a client asks for would write an error and a stack trace (easy
 * log flooding). Failures the mask turns into a stable code are logged by code instead, with no
 * stack: the client's own (NOT_FOUND, BAD_USER_INPUT, …) at info, the upstream's at warn.
 * Anything the mask hides as INTERNAL_SERVER_ERROR stays an error, stack included.
 */
import { GraphQLError } from 'graphql';
import type { YogaLogger } from 'graphql-yoga';
import type { Logger } from 'pino';
import { maskError } from '../schema/errors.js';

const UPSTREAM_FAILURES: ReadonlySet<unknown> = new Set([
  'UPSTREAM_ERROR',
  'UPSTREAM_INVALID_RESPONSE',
]);

export function yogaLogger(logger: Logger): YogaLogger {
  return {
    debug: logger.debug.bind(logger),
    info: logger.info.bind(logger),
    warn: logger.warn.bind(logger),
    error(...args: unknown[]) {
      const [first] = args;
      const masked = first instanceof Error ? maskError(first, '') : undefined;
      const code = masked instanceof GraphQLError ? masked.extensions.code : undefined;
      if (
        !(masked instanceof GraphQLError) ||
        typeof code !== 'string' ||
        code === 'INTERNAL_SERVER_ERROR'
      ) {
        (logger.error as (...all: unknown[]) => void)(...args);
        return;
      }
      const fields = { code, path: masked.path?.join('.') };
      if (UPSTREAM_FAILURES.has(code)) logger.warn(fields, masked.message);
      else logger.info(fields, masked.message);
    },
  };
}
