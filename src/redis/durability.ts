/**
 * How far a reservation must have travelled before its upstream call leaves. Apart from the
 * connection (connection.ts), so that configuration and the stores can name it without loading
 * the Redis client into a process that runs without Redis.
 */

/**
 * `replicas` replicas acknowledged it (WAIT) within `timeoutMs`. 0: the primary's word is
 * enough (a failover may then lose the last counts).
 */
export interface Durability {
  readonly replicas: number;
  readonly timeoutMs: number;
}

export const NO_REPLICA_WAIT: Durability = { replicas: 0, timeoutMs: 0 };
/** A cluster's default: one replica holds every count before its call leaves. */
export const CLUSTER_REPLICA_WAIT: Durability = { replicas: 1, timeoutMs: 100 };
