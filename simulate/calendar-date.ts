/**
 * A `Date` whose calendar is `now()`: `Date.now()` and argument-less
 * `new Date()` (and `Date()` called as a function) read it; dates built from
 * arguments, `Date.UTC`, `Date.parse` and `instanceof Date` are untouched.
 * The moved clock and the running clock differ only in `now`.
 */
export const RealDate = Date;

export function calendarDate(now: () => number): DateConstructor {
  return new Proxy(RealDate, {
    construct(target, args, newTarget) {
      return Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget);
    },
    // `Date()` called as a function is a string of the current time.
    apply() {
      return new RealDate(now()).toString();
    },
    get(target, property, receiver) {
      return property === 'now' ? now : Reflect.get(target, property, receiver);
    },
  });
}
