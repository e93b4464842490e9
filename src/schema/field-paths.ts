/**
 * `extensions.stale` names the fields a client got held data for: their
 * GraphQL paths, not the upstream's URLs. A resolver loads through
 * `context.loader`; here each field that declares upstream reads
 * (field-reads.ts) resolves with a context whose loader is that field's
 * (request-loader.ts `forField`), so every read is known by the fields it
 * answered. Fields that read nothing keep the request's context as it is.
 *
 * The context handed to such a resolver is a view of the request's own
 * (everything else read through to it), made per call: a subscription's
 * context is renewed for each event (`renewForEvent`), and the view reads
 * the loader of the event at hand.
 */
import { type GraphQLSchema, isObjectType } from 'graphql';
import type { GatewayContext } from './context.js';
import { fieldReadsOf, READS_NOTHING } from './field-reads.js';

export function withFieldPaths(schema: GraphQLSchema): GraphQLSchema {
  const subscription = schema.getSubscriptionType();
  for (const type of Object.values(schema.getTypeMap())) {
    // A subscription's root field renews the request's context itself: it must get that context.
    if (!isObjectType(type) || type.name.startsWith('__') || type === subscription) continue;
    for (const field of Object.values(type.getFields())) {
      const reads = fieldReadsOf(field);
      const resolve = field.resolve;
      if (reads === undefined || reads === READS_NOTHING || resolve === undefined) continue;
      field.resolve = (source, args, context: GatewayContext, info) =>
        resolve(
          source,
          args,
          Object.create(context, { loader: { value: context.loader.forField(info.path) } }),
          info,
        );
    }
  }
  return schema;
}
