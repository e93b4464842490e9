/**
 * Fields that read their parent's property of the same name (Pothos
 * `t.expose…`) lose their resolver: graphql-js reads such a field the same
 * way without one, and the compiled executor (graphql-jit) then reads the
 * property inline in the compiled query, where any resolver, even graphql's
 * own default one, is a call through its resolver machinery for every value
 * of every list.
 */
import { defaultFieldResolver, type GraphQLSchema, isObjectType } from 'graphql';

export function withPlainPropertyReads(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields()))
      if (field.resolve === defaultFieldResolver) field.resolve = undefined;
  }
  return schema;
}
