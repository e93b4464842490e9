/**
 * The API is read-only: a mutation is refused at validation with
 * OPERATION_NOT_SUPPORTED, rather than reaching graphql-js's execution error
 * ("Schema is not configured…"), which carries no code. Subscriptions are
 * answered (milestoneCrossed, over SSE).
 */
import type { ASTVisitor, ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { operationNotSupported } from '../../schema/errors.js';

const queryOperationsOnly = (context: ValidationContext): ASTVisitor => ({
  OperationDefinition(node) {
    if (node.operation === 'mutation') context.reportError(operationNotSupported('Mutation'));
  },
});

export function useQueryOperationsOnly(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(queryOperationsOnly);
    },
  };
}
