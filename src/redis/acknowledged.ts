/**
 * A write that must outlive its primary before anything depends on it.
 * Redis replicates asynchronously: a primary that dies may take its last
 * acknowledged writes with it, and the replica promoted in its place never
 * saw them. WAIT blocks until `replicas` replicas have acknowledged every
 * write the connection made so far, or `timeoutMs` has passed, and answers
 * how many did. The script and its WAIT leave in one pipeline: one round
 * trip, and on a cluster to the node that ran the script (WAIT names no key
 * of its own, so sent alone it would go to any node).
 */
import type { RedisClient } from './connection.js';
import type { Durability } from './durability.js';
import { queueScript } from './script.js';

export interface Acknowledged {
  /** The script's answer. */
  readonly answer: unknown;
  /** Replicas that hold the write (and every earlier one of this connection). */
  readonly replicas: number;
}

/** Runs the script `name` (defined by redisScript) and waits for `durability`; rejects as the script would. */
export async function runAcknowledged(
  redis: RedisClient,
  name: string,
  args: readonly (string | number)[],
  durability: Durability,
): Promise<Acknowledged> {
  const pipeline = redis.pipeline();
  queueScript(pipeline, name, args);
  pipeline.wait(durability.replicas, durability.timeoutMs);
  const results = await pipeline.exec();
  const [scriptError, answer] = results?.[0] ?? [new Error('redis: no answer'), undefined];
  if (scriptError !== null) throw scriptError;
  const [waitError, replicas] = results?.[1] ?? [new Error('redis: no answer to WAIT'), 0];
  if (waitError !== null) throw waitError;
  return { answer, replicas: Number(replicas) };
}
