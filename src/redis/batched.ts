/**
 * Reads asked of Redis in one turn of the event loop, sent as one command.
 *
 * A cold page's second wave starts twenty upstream reads at once, and each
 * would ask Redis the same questions on its own: its cache entry (twice:
 * before and under its lease), the shared circuit, the day's spending, its
 * record's popularity. On two cores the cost is the commands, not the
 * round trips: each is encoded, parsed and answered on both sides. Joined
 * here, twenty GETs are one MGET and twenty identical PTTLs one PTTL. A
 * read joined to a batch gets an answer no older than the one it would
 * have had: the batch leaves right after the turn in which it was asked.
 *
 * DataLoader does the batching (its default schedule: after the current
 * promise jobs), without its memo, so every call is a fresh read.
 */
import DataLoader from 'dataloader';

/** Bounds one command's size: a page's widest fan-out is 100 reads. */
const MAX_BATCH = 500;

/**
 * `send` answers every key of a batch, in order; a key may come more than once. An Error in its
 * place fails that key's caller alone (a cluster's slot that did not answer).
 */
export function batched<K, V>(send: (keys: readonly K[]) => Promise<readonly (V | Error)[]>) {
  const loader = new DataLoader<K, V>(async (keys) => send(keys), {
    cache: false,
    maxBatchSize: MAX_BATCH,
  });
  return (key: K): Promise<V> => loader.load(key);
}

/** One command per distinct key of the batch (`ask`), each answer shared by every caller of its key. */
export function joinedByKey<V>(ask: (key: string) => Promise<V>): (key: string) => Promise<V> {
  return batched(async (keys: readonly string[]) => {
    const distinct = [...new Set(keys)];
    const answers = new Map(
      await Promise.all(distinct.map(async (key) => [key, await ask(key)] as const)),
    );
    return keys.map((key) => answers.get(key) as V);
  });
}

/** The same question asked by many at once, asked once: every caller gets its one answer. */
export function joined<V>(ask: () => Promise<V>): () => Promise<V> {
  const read = joinedByKey(() => ask());
  return () => read('');
}
