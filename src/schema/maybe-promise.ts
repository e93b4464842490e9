/**
 * A value, or the promise of one. Resolvers answer what this process holds
 * without a promise, so that the compiled executor completes those fields
 * synchronously, and go asynchronous only for what must be read or waited for.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `next` of `value`: at once when `value` is there, after it when it is a promise. */
export function andThen<T, U>(
  value: MaybePromise<T>,
  next: (value: T) => MaybePromise<U>,
): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
