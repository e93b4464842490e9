/** The two kinds of connection the stores send their commands through, and telling them apart. */
import type { Cluster, Redis } from 'ioredis';

/** One Redis or a cluster: the stores send the same commands to either. */
export type RedisClient = Redis | Cluster;

export function isCluster(redis: RedisClient): redis is Cluster {
  return (redis as Cluster).isCluster === true;
}
