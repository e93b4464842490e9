/**
 * A value kept on an object under a symbol of its own, hidden from enumeration and from JSON:
 * what a WeakMap keyed by the object would hold, for objects made for one request (its Request,
 * its result's data). Why not a WeakMap: each entry of one is an ephemeron, which the garbage
 * collector traces apart from everything else, and entries made and dropped on every request
 * cost every request a share of its time, spent in the collector.
 */
export interface ObjectSlot<T> {
  get(owner: object): T | undefined;
  set(owner: object, value: T): void;
}

export function objectSlot<T>(name: string): ObjectSlot<T> {
  const key = Symbol(name);
  return {
    get: (owner) => (owner as { [key]?: T })[key],
    set(owner, value) {
      // A frozen or sealed owner keeps nothing: its value is made again when asked for.
      if (!Object.isExtensible(owner)) return;
      Object.defineProperty(owner, key, { value, writable: true, configurable: true });
    },
  };
}
