/**
 * `extensions.stale` names the fields a client got held data for: their
 * GraphQL paths, not the upstream's URLs. A resolver loads through
 * `context.loader`; here each field that declares upstream reads
 * (field-reads.ts) resolves with a context whose loader is that field's
 * (request-loader.ts `forField`), so every read is known by the fields it
 * answered. Fields that read nothing keep the request's context as it is.
 *
 * The context handed to such a resolver is a view of the request's own,
 * made per call: everything reads through to the request's context at the
 * moment it is read (a subscription's context is renewed for each event,
 * `renewForEvent`), and the field's loader is made the first time the
 * resolver asks for it; most answer from what their parent holds and never
 * do. One class for every view: the resolvers' property reads stay of one
 * shape whatever the request.
 */
import type { GraphQLSchema, ResponsePath } from 'graphql';
import { isObjectType } from 'graphql';
import type { Loader } from '../reads/request-loader.js';
import type { GatewayContext } from './context.js';
import { fieldReadsOf, READS_NOTHING } from './field-reads.js';

class FieldContext implements GatewayContext {
  #loader: Loader | undefined;

  constructor(
    private readonly request: GatewayContext,
    private readonly path: ResponsePath,
  ) {}

  get loader(): Loader {
    this.#loader ??= this.request.loader.forField(this.path);
    return this.#loader;
  }

  get caller() {
    return this.request.caller;
  }

  get report() {
    return this.request.report;
  }

  get spending() {
    return this.request.spending;
  }

  get budget() {
    return this.request.budget;
  }

  get assumptions() {
    return this.request.assumptions;
  }

  get live() {
    return this.request.live;
  }

  get generation() {
    return this.request.generation;
  }

  renewForEvent(): void {
    this.request.renewForEvent();
  }

  boundedBacklog<T>(events: AsyncIterableIterator<T>): AsyncIterableIterator<T> {
    return this.request.boundedBacklog(events);
  }
}

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
        resolve(source, args, new FieldContext(context, info.path), info);
    }
  }
  return schema;
}
