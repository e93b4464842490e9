/**
 * Refuses, before anything runs, an `@stream` whose `initialCount` the
 * executor would reject: below 0 or null. The executor checks it only when
 * it completes the list, after the list's resolver has run and spent its
 * upstream call, and then fails the field with an internal error; here it is
 * BAD_USER_INPUT and nothing is read, whether the value is a literal or a
 * variable.
 */
import {
  type DocumentNode,
  type FieldNode,
  type GraphQLSchema,
  getDirectiveValues,
  getOperationAST,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
  visit,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { badUserInputBeforeExecution } from '../../http-errors.js';

export function useStreamArguments(): Plugin {
  // Yoga hands every request with the same text the same DocumentNode: each operation is scanned once.
  const streamedByOperation = new WeakMap<OperationDefinitionNode, readonly FieldNode[]>();
  const streamedFieldsOf = (document: DocumentNode, operation: OperationDefinitionNode) => {
    let fields = streamedByOperation.get(operation);
    if (fields === undefined) {
      fields = streamedFields(document, operation);
      streamedByOperation.set(operation, fields);
    }
    return fields;
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName ?? undefined);
      if (operation == null) return;
      const fields = streamedFieldsOf(args.document, operation);
      if (fields.length === 0) return;
      const refused = refusedStream(args.schema, operation, fields, args.variableValues);
      if (refused !== undefined) setResultAndStopExecution({ errors: [refused] });
    },
  };
}

/** The first `@stream` of `fields` the executor would refuse, as the client's error. */
function refusedStream(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fields: readonly FieldNode[],
  rawVariables: unknown,
) {
  const stream = schema.getDirective('stream');
  if (stream === undefined || stream === null) return undefined;
  const inputs =
    typeof rawVariables === 'object' && rawVariables !== null
      ? (rawVariables as Record<string, unknown>)
      : {};
  const variables = getVariableValues(schema, operation.variableDefinitions ?? [], inputs);
  // Variables that cannot be coerced are the executor's to report (BAD_USER_INPUT, nothing runs).
  if (variables.coerced === undefined) return undefined;
  for (const field of fields) {
    const values = getDirectiveValues(stream, field, variables.coerced);
    if (values === undefined || values.if === false) continue;
    const initialCount = values.initialCount;
    if (typeof initialCount !== 'number' || initialCount < 0) {
      return badUserInputBeforeExecution(
        `"initialCount" of @stream on "${field.name.value}" must be 0 or more`,
        'initialCount',
      );
    }
  }
  return undefined;
}

/** Fields carrying `@stream` in the operation and the fragments it spreads. */
function streamedFields(
  document: DocumentNode,
  operation: OperationDefinitionNode,
): readonly FieldNode[] {
  const found: FieldNode[] = [];
  const spread = new Set<string>();
  const pending: (OperationDefinitionNode | DocumentNode['definitions'][number])[] = [operation];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    visit(node, {
      Field(field) {
        if (field.directives?.some((directive) => directive.name.value === 'stream'))
          found.push(field);
      },
      FragmentSpread(fragmentSpread) {
        const name = fragmentSpread.name.value;
        if (spread.has(name)) return;
        spread.add(name);
        const fragment = document.definitions.find(
          (definition) =>
            definition.kind === Kind.FRAGMENT_DEFINITION && definition.name.value === name,
        );
        if (fragment !== undefined) pending.push(fragment);
      },
    });
  }
  return found;
}
