/** The generation of one process alone (no REDIS_URL). */
import {
  type Advance,
  type Generation,
  type GenerationStore,
  KNOWN_IDS_LIMIT,
} from './generation.js';

export class MemoryGenerationStore implements GenerationStore {
  #generation: Generation | undefined;
  #known: string[] = [];

  async load(): Promise<Generation | undefined> {
    return this.#generation;
  }

  async advance(ids: readonly string[], seenAt: string, floorId: number): Promise<Advance> {
    if (this.#generation === undefined) {
      this.#generation = { id: floorId, seenAt };
      this.#known = [...ids];
      return { generation: this.#generation, newIds: [] };
    }
    const known = new Set(this.#known);
    const newIds = ids.filter((id) => !known.has(id));
    if (newIds.length > 0) this.#generation = { id: this.#generation.id + 1, seenAt };
    this.#known = [...ids, ...this.#known.filter((id) => !ids.includes(id))].slice(
      0,
      KNOWN_IDS_LIMIT,
    );
    return { generation: this.#generation, newIds };
  }
}
