/**
 * Fields that answer one key of their object's upstream record (an artist's
 * `country`, a song's `durationMs`): what the field needs of its object is
 * the level that first holds the key (refs.ts `ARTIST_KEYS`…), taken from
 * the very key its resolver reads, so the declaration cannot disagree with
 * the resolver. `recordReader` makes the field's `upstream` and `resolve`
 * from a key; `keyFields` makes a whole scalar field from a key, a type and
 * a description, the shape most fields of Artist, Song and Album take.
 */
import type { OutputShape, TypeParam } from '@pothos/core';
import type { GraphQLResolveInfo } from 'graphql';
import type { builder } from './builder.js';
import type { GatewayContext } from './context.js';
import type { KeyLevels, Knows } from './field-reads.js';
import { andThen, type MaybePromise } from './maybe-promise.js';

type Types = typeof builder.$inferSchemaTypes;

/** The keys of record `R` that a level holds. */
export type RecordKey<R> = keyof KeyLevels<R> & keyof R & string;

/** Reads `key` of the object's record: from what its parent holds, or else by loading it. */
export type ReadKey<Shape, R> = <K extends RecordKey<R>>(
  object: Shape,
  key: K,
  context: GatewayContext,
) => MaybePromise<R[K]>;

/** What a field answering a key may declare besides: the list it returns, what it hands down. */
export interface KeyReads {
  readonly size?: number;
  readonly knows?: Knows;
}

/** The part of a field's options that reads a key: its declaration and its resolver. */
export interface KeyField<Shape, T> {
  readonly upstream: KeyReads & { readonly needs: Knows };
  resolve(object: Shape, args: unknown, context: GatewayContext, info: GraphQLResolveInfo): T;
}

/** What a field makes of the key's value before answering it. */
type Then<Shape, V, T> = (
  value: V,
  object: Shape,
  context: GatewayContext,
  info: GraphQLResolveInfo,
) => T;

export interface RecordReader<Shape, R> {
  /** A field answering `key` as the record has it. */
  key<K extends RecordKey<R>>(key: K): KeyField<Shape, MaybePromise<R[K]>>;
  /** A field answering what `then` makes of `key` (a list's items, a link to another object). */
  key<K extends RecordKey<R>, T>(
    key: K,
    then: Then<Shape, R[K], T>,
    reads?: KeyReads,
  ): KeyField<Shape, MaybePromise<Awaited<T>>>;
  /** What a field reading `key` some other way needs (a song's slug, found by search). */
  needs(key: RecordKey<R>): { readonly needs: Knows };
}

export function recordReader<Shape, R>(
  levels: KeyLevels<R>,
  read: ReadKey<Shape, R>,
): RecordReader<Shape, R> {
  const needs = (key: RecordKey<R>) => ({ needs: levels[key] });
  return {
    key: <K extends RecordKey<R>, T>(key: K, then?: Then<Shape, R[K], T>, reads?: KeyReads) => ({
      upstream: { ...reads, ...needs(key) },
      // No async here: a key held in process is answered at once, without a promise per field.
      resolve: (object: Shape, _: unknown, context: GatewayContext, info: GraphQLResolveInfo) => {
        const value = read(object, key, context);
        if (then === undefined) return value;
        return andThen(value, (held) => then(held, object, context, info));
      },
    }),
    needs,
  };
}

/** `T` when the schema's type `T` can answer a value `V`; `never` otherwise. */
type Answering<V, T extends TypeParam<Types>> = [V] extends [OutputShape<Types, T>] ? T : never;

/**
 * Scalar and enum fields of one object type, one line each: `held('country',
 * 'String', 'ISO 3166-1…')` is a nullable field answering the record's
 * `country`; `held.required` is one that is never null (a name, a title).
 * The type must be one the record's value can be answered as.
 */
export function keyFields<Shape, R>(
  t: PothosSchemaTypes.ObjectFieldBuilder<Types, Shape>,
  reader: RecordReader<Shape, R>,
) {
  const field = (key: RecordKey<R>, type: unknown, description: string, nullable: boolean) =>
    // The type was checked against the key's value by the signatures below.
    t.field({ type, nullable, description, ...reader.key(key) } as never);
  const held = <K extends RecordKey<R>, T extends TypeParam<Types>>(
    key: K,
    type: Answering<NonNullable<R[K]>, T>,
    description: string,
  ) => field(key, type, description, true);
  held.required = <K extends RecordKey<R>, T extends TypeParam<Types>>(
    key: K,
    type: Answering<R[K], T>,
    description: string,
  ) => field(key, type, description, false);
  return held;
}
