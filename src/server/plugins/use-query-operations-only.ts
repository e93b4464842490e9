/**
 * The API is read-only: a mutation is refused at validation with
 * OPERATION_NOT_SUPPORTED, rather than reaching graphql-js's execution error
 * ("Schema is not configured…"), which carries no code. Sent by GET, it is
 * the same refusal with GET's 405. Subscriptions are answered
 * (milestoneCrossed, over SSE).
 */
import { type ASTVisitor, getOperationAST, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { mutationViaGet, operationNotSupported } from '../../http-errors.js';
import type { RequestContext } from '../server-context.js';

const queryOperationsOnly = (context: ValidationContext): ASTVisitor => ({
  OperationDefinition(node) {
    if (node.operation === 'mutation') context.reportError(operationNotSupported('Mutation'));
  },
});

export function useQueryOperationsOnly(): Plugin<RequestContext> {
  return {
    // Before Yoga's own GET check (its plugins run after the gateway's), which says BAD_REQUEST.
    onParse({ context }) {
      const { request, params } = context;
      if (request?.method !== 'GET') return;
      return ({ result }) => {
        if (result instanceof Error) return;
        if (getOperationAST(result, params?.operationName)?.operation === 'mutation')
          throw mutationViaGet();
      };
    },
    onValidate({ addValidationRule }) {
      addValidationRule(queryOperationsOnly);
    },
  };
}
