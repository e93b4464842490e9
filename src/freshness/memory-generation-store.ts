/** The generation of one process alone (no REDIS_URL). */
import {
  type Advance,
  artistsOfNewMilestones,
  type Generation,
  type GenerationStore,
  KNOWN_IDS_LIMIT,
  type PolledMilestone,
  type PollKind,
  withChange,
} from './generation.js';

export class MemoryGenerationStore implements GenerationStore {
  #generation: Generation | undefined;
  #known: string[] = [];
  /** When the last poll ran (epoch ms, calendar). */
  #polledAt: number | undefined;

  async load(): Promise<Generation | undefined> {
    return this.#generation;
  }

  async advance(
    page: readonly PolledMilestone[],
    seenAt: string,
    floorId: number,
    kind: PollKind = 'steady',
  ): Promise<Advance> {
    const ids = page.map((milestone) => milestone.id);
    const polledAt = Date.parse(seenAt);
    const previousPoll = this.#polledAt;
    this.#polledAt = polledAt;
    if (this.#generation === undefined) {
      this.#generation = { id: floorId, seenAt };
      this.#known = [...ids];
      return { generation: this.#generation, newIds: [] };
    }
    const known = new Set(this.#known);
    const newIds = ids.filter((id) => !known.has(id));
    if (newIds.length > 0) {
      const id = this.#generation.id + 1;
      const changes = withChange(
        this.#generation.milestoneArtists,
        id,
        artistsOfNewMilestones(page, newIds),
      );
      this.#generation = {
        id,
        seenAt,
        ...(previousPoll === undefined
          ? {}
          : { seenWithinMs: Math.max(0, polledAt - previousPoll), seenBy: kind }),
        ...(changes.length > 0 ? { milestoneArtists: changes } : {}),
      };
    }
    this.#known = [...ids, ...this.#known.filter((id) => !ids.includes(id))].slice(
      0,
      KNOWN_IDS_LIMIT,
    );
    return { generation: this.#generation, newIds };
  }
}
