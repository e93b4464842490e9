/**
 * One command over keys that may live in different hash slots of a Redis
 * Cluster, which refuses a command whose keys span two slots (CROSSSLOT).
 * The keys are split by slot, one command each; the commands for one node
 * leave together in one pipeline, and every node's at once: a batch of
 * reads costs one round trip per node, as it costs one on a single Redis.
 */
import type { ChainableCommander, Cluster } from 'ioredis';
import { hashSlot } from './hash-slot.js';

/** What one slot's command answered, for the keys at `indices` of the batch, in their order. */
export interface SlotAnswer {
  readonly indices: readonly number[];
  readonly answer: unknown;
  /** Set when the command failed (the slot moving, its node unreachable): its keys failed. */
  readonly error?: Error;
}

export { isCluster } from './client.js';

/**
 * Queues `command(pipeline, keysOfOneSlot)` once per slot of `keys` and sends each node's
 * commands in one pipeline. Never rejects: a failed command or pipeline is told in its answers.
 */
export async function perSlot(
  cluster: Cluster,
  keys: readonly string[],
  command: (pipeline: ChainableCommander, keys: readonly string[]) => void,
): Promise<SlotAnswer[]> {
  // ioredis prefixes keys as it sends them, and the slot is the prefixed key's.
  const prefix = cluster.options.keyPrefix ?? '';
  const slots = new Map<number, number[]>();
  keys.forEach((key, index) => {
    const slot = hashSlot(`${prefix}${key}`);
    const indices = slots.get(slot);
    if (indices === undefined) slots.set(slot, [index]);
    else indices.push(index);
  });
  // Slots served by the same nodes go in one pipeline (ioredis sends a pipeline to one node).
  const nodes = new Map<string, number[][]>();
  for (const [slot, indices] of slots) {
    const node = cluster.slots[slot]?.join(',') ?? `unknown ${slot}`;
    const group = nodes.get(node);
    if (group === undefined) nodes.set(node, [indices]);
    else group.push(indices);
  }
  const answers = await Promise.all(
    [...nodes.values()].map(async (groups): Promise<SlotAnswer[]> => {
      const pipeline = cluster.pipeline();
      for (const indices of groups)
        command(
          pipeline,
          indices.map((index) => keys[index]!),
        );
      try {
        const results = (await pipeline.exec()) ?? [];
        return groups.map((indices, at) => {
          const [error, answer] = results[at] ?? [new Error('redis: no answer'), undefined];
          return error === null ? { indices, answer } : { indices, answer, error };
        });
      } catch (error) {
        return groups.map((indices) => ({ indices, answer: undefined, error: error as Error }));
      }
    }),
  );
  return answers.flat();
}
