/**
 * The API is read-only: a mutation or subscription is refused at validation
 * with OPERATION_NOT_SUPPORTED, rather than reaching graphql-js's execution
 * error ("Schema is not configured…"), which carries no code.
 */
import type { ASTVisitor, ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { operationNotSupported } from '../../schema/errors.js';

const queryOperationsOnly = (context: ValidationContext): ASTVisitor => ({
  OperationDefinition(node) {
    if (node.operation !== 'query') {
      const kind = node.operation === 'mutation' ? 'Mutation' : 'Subscription';
      context.reportError(operationNotSupported(kind));
    }
  },
});

export function useQueryOperationsOnly(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(queryOperationsOnly);
    },
  };
}
