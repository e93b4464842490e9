/**
 * graphql-js reports variables it cannot coerce (`{"v": 2147483648}` for an
 * Int, a missing required variable) as request errors without a code. They
 * are always the client's input, so they get BAD_USER_INPUT. Field errors
 * are not touched: `maskError` gives each of those its code.
 */
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { ErrorCode } from '../../error-codes.js';

export function useRequestErrorCodes(): Plugin {
  return {
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result || result.errors === undefined) return;
          if (
            result.errors.every(
              (error) => error.path !== undefined || error.extensions.code !== undefined,
            )
          )
            return;
          setResult(Object.assign({}, result, { errors: result.errors.map(withInputCode) }));
        },
      };
    },
  };
}

function withInputCode(error: GraphQLError): GraphQLError {
  if (error.path !== undefined || error.extensions.code !== undefined) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    extensions: Object.assign({}, error.extensions, {
      code: 'BAD_USER_INPUT' satisfies ErrorCode,
    }),
  });
}
