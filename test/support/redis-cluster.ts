/**
 * A Redis Cluster of the test's own: six `redis-server --cluster-enabled yes`
 * processes on free ports (three primaries, three replicas), each in a
 * temporary folder of its own, without persistence and with a short
 * cluster-node-timeout so that a failover takes a few seconds; formed with
 * `redis-cli --cluster create` and waited for by condition (every node says
 * cluster_state:ok and every replica is in sync), stopped and removed by
 * `stop()`. A node can be killed (SIGKILL, a crash) and started again in its
 * folder, where it rejoins as a replica of whoever took its slots.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Cluster, Redis } from 'ioredis';
import { hashSlot } from '../../src/redis/hash-slot.js';
import { freePort, keysUnder, NO_TTL, realClockEnv } from './redis.js';
import { until } from './until.js';

const run = promisify(execFile);

/**
 * Short, so that a killed primary's replica takes over within a few seconds; not shorter, so
 * that a node slowed by a loaded machine is not failed over unasked (a failover the test did
 * not cause moves the subscriber connections and the slots under it).
 */
export const CLUSTER_NODE_TIMEOUT_MS = 2_000;

export interface ClusterNode {
  readonly port: number;
  readonly address: string;
  /** True while its process runs. */
  alive(): boolean;
  /** A direct connection to this node alone (unprefixed); closed by the cluster's stop(). */
  connection(): Redis;
}

export interface OwnCluster {
  readonly nodes: readonly ClusterNode[];
  /** `host:port,…` of every node: the value of REDIS_CLUSTER_NODES. */
  readonly seeds: string;
  /** A cluster client without a key prefix (sees keys as the nodes hold them); closed by stop(). */
  readonly admin: Cluster;
  /** The node serving `key`'s slot (the whole key, prefix included) as a primary now. */
  primaryOf(key: string): Promise<ClusterNode>;
  /** The node replicating `primary` now. */
  replicaOf(primary: ClusterNode): Promise<ClusterNode>;
  /** SIGSTOP: the node holds its connections but answers nothing, as a stalled VM; `resume` ends it. */
  pause(node: ClusterNode): void;
  resume(node: ClusterNode): void;
  /** SIGKILL: the node is gone without a word, as in a crash. */
  kill(node: ClusterNode): Promise<void>;
  /** Starts a killed node again in its folder; resolves once it is a replica in sync. */
  restart(node: ClusterNode): Promise<void>;
  /**
   * Until every live node sees every slot served, every live replica is in sync, and no live
   * node is flagged failing by another (a node paused and resumed is, for a while).
   */
  healthy(): Promise<void>;
  /** Every key under `prefix` on every primary, with its time to live in ms (-1: none). */
  keysUnder(prefix: string): Promise<Map<string, number>>;
  deleteUnder(prefix: string): Promise<void>;
  stop(): Promise<void>;
}

interface NodeProcess extends ClusterNode {
  readonly busPort: number;
  readonly folder: string;
  child: ChildProcess;
}

function spawnNode(node: { port: number; busPort: number; folder: string }): ChildProcess {
  return spawn(
    'redis-server',
    [
      '--port',
      String(node.port),
      '--cluster-port',
      String(node.busPort),
      '--bind',
      '127.0.0.1',
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      'nodes.conf',
      '--cluster-node-timeout',
      String(CLUSTER_NODE_TIMEOUT_MS),
      '--dir',
      node.folder,
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: 'ignore', env: realClockEnv() },
  );
}

async function info(connection: Redis, section: string): Promise<Map<string, string>> {
  const text =
    section === 'cluster' ? await connection.cluster('INFO') : await connection.info(section);
  return new Map(
    text
      .split('\r\n')
      .filter((line) => line.includes(':'))
      .map((line) => line.split(':', 2) as [string, string]),
  );
}

/** A node's process ended before the cluster was formed: its port was taken meanwhile, most likely. */
class NodeExitedAtStart extends Error {}

/**
 * Starts the cluster; a start whose node could not take its port (a free port picked, then
 * taken by another process's connection before redis-server bound it) is tried again on others.
 */
export async function startOwnCluster(): Promise<OwnCluster> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnFreePorts();
    } catch (error) {
      if (!(error instanceof NodeExitedAtStart) || attempt === 3) throw error;
    }
  }
}

async function startOnFreePorts(): Promise<OwnCluster> {
  const nodes: NodeProcess[] = [];
  const connections = new Map<number, Redis>();
  const connectionTo = (port: number): Redis => {
    let connection = connections.get(port);
    if (connection === undefined) {
      connection = new Redis(port, '127.0.0.1', {
        lazyConnect: true,
        retryStrategy: () => 50,
        maxRetriesPerRequest: 0,
      });
      connection.on('error', () => undefined);
      connections.set(port, connection);
    }
    return connection;
  };
  // Ports one at a time: two free ports asked at once may be the same one.
  for (let index = 0; index < 6; index += 1) {
    const port = await freePort();
    const busPort = await freePort();
    const folder = mkdtempSync(join(tmpdir(), 'gateway-cluster-node-'));
    const node: NodeProcess = {
      port,
      busPort,
      folder,
      address: `127.0.0.1:${port}`,
      child: spawnNode({ port, busPort, folder }),
      alive: () => node.child.exitCode === null && node.child.signalCode === null,
      connection: () => connectionTo(port),
    };
    nodes.push(node);
  }
  const admin = new Cluster(
    nodes.map((node) => ({ host: '127.0.0.1', port: node.port })),
    { lazyConnect: true, redisOptions: { maxRetriesPerRequest: 1 } },
  );
  admin.on('error', () => undefined);

  const alive = () => nodes.filter((node) => node.alive());

  const cluster: OwnCluster = {
    nodes,
    seeds: nodes.map((node) => node.address).join(','),
    admin,
    async primaryOf(key) {
      const slot = hashSlot(key);
      let found: ClusterNode | undefined;
      await until(async () => {
        for (const node of alive()) {
          const role = (await node
            .connection()
            .role()
            .catch(() => [])) as unknown[];
          if (role[0] !== 'master') continue;
          const slots = (await node
            .connection()
            .cluster('SLOTS')
            .catch(() => [])) as [number, number, [string, number]][];
          const served = slots.find(
            ([from, to, [, port]]) => slot >= from && slot <= to && port === node.port,
          );
          if (served !== undefined) {
            found = node;
            return true;
          }
        }
        return false;
      });
      return found!;
    },
    async replicaOf(primary) {
      let found: ClusterNode | undefined;
      await until(async () => {
        for (const node of alive()) {
          const replication = await info(node.connection(), 'replication').catch(() => undefined);
          if (
            replication?.get('role') === 'slave' &&
            replication.get('master_port') === String(primary.port) &&
            replication.get('master_link_status') === 'up'
          ) {
            found = node;
            return true;
          }
        }
        return false;
      });
      return found!;
    },
    pause(node) {
      (node as NodeProcess).child.kill('SIGSTOP');
    },
    resume(node) {
      (node as NodeProcess).child.kill('SIGCONT');
    },
    async kill(node) {
      const target = node as NodeProcess;
      if (!target.alive()) return;
      const exited = once(target.child, 'exit');
      target.child.kill('SIGKILL');
      // A paused node dies as well: SIGKILL needs no SIGCONT.
      await exited;
      connections.get(target.port)?.disconnect();
      connections.delete(target.port);
    },
    async restart(node) {
      const target = node as NodeProcess;
      target.child = spawnNode(target);
      await until(
        async () =>
          (await target
            .connection()
            .ping()
            .catch(() => '')) === 'PONG',
      );
      await cluster.healthy();
    },
    async healthy() {
      await until(async () => {
        for (const node of alive()) {
          const state = await info(node.connection(), 'cluster').catch(() => undefined);
          if (state?.get('cluster_state') !== 'ok' || state.get('cluster_slots_ok') !== '16384')
            return false;
          const replication = await info(node.connection(), 'replication').catch(() => undefined);
          if (replication === undefined) return false;
          if (replication.get('role') === 'slave' && replication.get('master_link_status') !== 'up')
            return false;
          // A replica whose link is up may not acknowledge writes yet (just synced): a primary's
          // WAIT, as the ledger's, must see each of its replicas first.
          const replicas = Number(replication.get('connected_slaves') ?? 0);
          if (replication.get('role') === 'master' && replicas > 0) {
            const acknowledged = await node
              .connection()
              .call('WAIT', replicas, 1_000)
              .catch(() => 0);
            if (Number(acknowledged) < replicas) return false;
          }
          const view = await node
            .connection()
            .cluster('NODES')
            .catch(() => undefined);
          if (typeof view !== 'string' || flaggedLive(view, alive())) return false;
        }
        return true;
      });
    },
    async keysUnder(prefix) {
      const found = new Map<string, number>();
      for (const primary of admin.nodes('master'))
        for (const [key, ttl] of await keysUnder(primary, prefix)) found.set(key, ttl);
      return found;
    },
    async deleteUnder(prefix) {
      // One DEL per key: keys of different slots cannot go in one command.
      for (const key of (await cluster.keysUnder(prefix)).keys()) await admin.del(key);
    },
    async stop() {
      admin.disconnect();
      for (const connection of connections.values()) connection.disconnect();
      await Promise.all(nodes.map((node) => cluster.kill(node)));
      for (const node of nodes) rmSync(node.folder, { recursive: true, force: true });
    },
  };

  try {
    await Promise.all(
      nodes.map((node) =>
        until(async () => {
          if (!node.alive())
            throw new NodeExitedAtStart(`redis-server on port ${node.port} exited at start`);
          return (
            (await node
              .connection()
              .ping()
              .catch(() => '')) === 'PONG'
          );
        }),
      ),
    );
    await run('redis-cli', [
      '--cluster',
      'create',
      ...nodes.map((node) => node.address),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]);
    await cluster.healthy();
    // Every node must know every other before a failover can be voted on.
    await until(async () => {
      for (const node of nodes) {
        const state = await info(node.connection(), 'cluster');
        if (state.get('cluster_known_nodes') !== '6') return false;
      }
      return true;
    });
    await admin.connect();
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}

/** Whether a CLUSTER NODES view flags a live node as failing (`fail` or `fail?`) or disconnected. */
function flaggedLive(view: string, live: readonly ClusterNode[]): boolean {
  const ports = new Set(live.map((node) => String(node.port)));
  return view
    .trim()
    .split('\n')
    .some((line) => {
      const [, address = '', flags = '', , , , , link = ''] = line.split(' ');
      const port = /:(\d+)@/.exec(address)?.[1] ?? '';
      if (!ports.has(port)) return false;
      return flags.split(',').some((flag) => flag.startsWith('fail')) || link !== 'connected';
    });
}

export { NO_TTL };
