/**
 * Fields that read their parent's property of the same name lose their
 * resolver: graphql-js reads such a field the same way without one, and the
 * compiled executor (graphql-jit) then reads the property inline in the
 * compiled query, where any resolver, even graphql's own default one, is a
 * call through its resolver machinery for every value of every list.
 *
 * Two kinds: Pothos `t.expose…` fields, and record reads (`fromRecord`,
 * `fromRecordRequired`) of a key named as the field. A record read also
 * turns an unreadable or missing value into an error at its field; so every
 * field whose type has such plain reads hands its records on through
 * `asPlainParent`, which puts that error where the value was.
 */
import {
  defaultFieldResolver,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isObjectType,
} from 'graphql';
import type { UpstreamRecord } from '../upstream/records.js';
import { andThen } from './maybe-promise.js';
import {
  asPlainParent,
  type PlainReads,
  plainReads,
  type RecordRead,
  recordReadOf,
} from './upstream-fields.js';

export function withPlainPropertyReads(schema: GraphQLSchema): GraphQLSchema {
  const objectTypes = Object.values(schema.getTypeMap()).filter(
    (type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__'),
  );
  const recordReads = new Map<GraphQLObjectType, RecordRead[]>();
  for (const type of objectTypes) {
    for (const field of Object.values(type.getFields())) {
      const read = recordReadOf(field.resolve);
      if (read?.key === field.name) {
        recordReads.set(type, [...(recordReads.get(type) ?? []), read]);
        field.resolve = undefined;
      } else if (field.resolve === defaultFieldResolver) field.resolve = undefined;
    }
  }
  const byType = new Map([...recordReads].map(([type, reads]) => [type, plainReads(reads)]));
  for (const type of objectTypes)
    for (const field of Object.values(type.getFields())) {
      const reads = byType.get(getNamedType(field.type) as GraphQLObjectType);
      if (reads !== undefined) field.resolve = handingOnPlainParents(field, reads);
    }
  return schema;
}

/** `field`'s resolver, its records (one, or a list of them) handed on through `asPlainParent`. */
function handingOnPlainParents(
  field: GraphQLField<unknown, unknown>,
  reads: PlainReads,
): GraphQLFieldResolver<unknown, unknown> {
  const resolve = field.resolve ?? defaultFieldResolver;
  // A held list is the same array for every request that reads it while it is held: it is
  // looked at once, not once per request.
  const handedLists = new WeakMap<readonly unknown[], readonly unknown[]>();
  const parent = (value: unknown) =>
    value === null || typeof value !== 'object'
      ? value
      : asPlainParent(value as UpstreamRecord, reads);
  const parents = (value: unknown): unknown => {
    if (!Array.isArray(value)) return parent(value);
    let handed = handedLists.get(value);
    if (handed === undefined) {
      handed = handedList(value, parent);
      handedLists.set(value, handed);
    }
    return handed;
  };
  return (source, args, context, info) => andThen(resolve(source, args, context, info), parents);
}

/** `list` with each item handed on; nearly every list has nothing to replace, and goes on as it is. */
function handedList(
  list: readonly unknown[],
  parent: (item: unknown) => unknown,
): readonly unknown[] {
  let copy: unknown[] | undefined;
  list.forEach((item, index) => {
    const handed = parent(item);
    if (handed === item) return;
    copy ??= [...list];
    copy[index] = handed;
  });
  return copy ?? list;
}
