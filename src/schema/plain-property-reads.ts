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
import { asPlainParent, type RecordRead, recordReadOf } from './upstream-fields.js';

export function withPlainPropertyReads(schema: GraphQLSchema): GraphQLSchema {
  const objectTypes = Object.values(schema.getTypeMap()).filter(
    (type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__'),
  );
  const plainReads = new Map<GraphQLObjectType, RecordRead[]>();
  for (const type of objectTypes) {
    for (const field of Object.values(type.getFields())) {
      const read = recordReadOf(field.resolve);
      if (read?.key === field.name) {
        plainReads.set(type, [...(plainReads.get(type) ?? []), read]);
        field.resolve = undefined;
      } else if (field.resolve === defaultFieldResolver) field.resolve = undefined;
    }
  }
  for (const type of objectTypes)
    for (const field of Object.values(type.getFields())) {
      const reads = plainReads.get(getNamedType(field.type) as GraphQLObjectType);
      if (reads !== undefined) field.resolve = handingOnPlainParents(field, reads);
    }
  return schema;
}

/** `field`'s resolver, its records (one, or a list of them) handed on through `asPlainParent`. */
function handingOnPlainParents(
  field: GraphQLField<unknown, unknown>,
  reads: readonly RecordRead[],
): GraphQLFieldResolver<unknown, unknown> {
  const resolve = field.resolve ?? defaultFieldResolver;
  const parent = (value: unknown) =>
    value === null || typeof value !== 'object'
      ? value
      : asPlainParent(value as UpstreamRecord, reads);
  const parents = (value: unknown): unknown => {
    if (!Array.isArray(value)) return parent(value);
    // Nearly every list has nothing to replace: it goes on as it is, not copied.
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const handed = parent(item);
      if (handed === item) return;
      copy ??= [...value];
      copy[index] = handed;
    });
    return copy ?? value;
  };
  return (source, args, context, info) => andThen(resolve(source, args, context, info), parents);
}
