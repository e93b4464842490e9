/**
 * The data generation of a worker of one machine without Redis: the primary
 * keeps one memory store (memory-generation-store.ts), so whichever worker
 * polls advances it for all, as one Redis does for replicas.
 */
import type { PrimaryLink } from '../machine/primary-link.js';
import type {
  Advance,
  Generation,
  GenerationStore,
  PolledMilestone,
  PollKind,
} from './generation.js';

export class MachineGenerationStore implements GenerationStore {
  constructor(private readonly primary: PrimaryLink) {}

  async load(): Promise<Generation | undefined> {
    return (await this.primary.call<Generation | null>('generations', 'load')) ?? undefined;
  }

  advance(
    page: readonly PolledMilestone[],
    seenAt: string,
    floorId: number,
    kind?: PollKind,
  ): Promise<Advance> {
    return this.primary.call<Advance>('generations', 'advance', page, seenAt, floorId, kind);
  }
}
