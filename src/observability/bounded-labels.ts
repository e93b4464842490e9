/**
 * Keeps a label's values to a bounded set: the first `max` distinct values
 * seen keep their own series, later ones are counted under `other`. A client
 * choosing names (or a flood of made-up keys) cannot grow the scrape without
 * bound.
 */
export const OTHER_LABEL = 'other';

export class BoundedLabels {
  readonly #known = new Set<string>();

  constructor(private readonly max: number) {}

  /** `value` itself while there is room (or it is already known), `other` after. */
  label(value: string): string {
    if (this.#known.has(value)) return value;
    if (this.#known.size >= this.max) return OTHER_LABEL;
    this.#known.add(value);
    return value;
  }

  values(): IterableIterator<string> {
    return this.#known.values();
  }
}
