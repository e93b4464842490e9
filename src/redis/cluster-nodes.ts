/**
 * REDIS_CLUSTER_NODES: the seed nodes of a Redis Cluster, `host:port,host:port,…`
 * (the gateway discovers the rest). TLS and credentials are given as with
 * REDIS_URL, by writing the seeds as URLs (`rediss://user:password@host:port`);
 * every seed then says the same, since they are one cluster's nodes.
 */

export interface ClusterSeeds {
  readonly nodes: readonly { readonly host: string; readonly port: number }[];
  readonly tls: boolean;
  readonly username: string | undefined;
  readonly password: string | undefined;
}

/** What one seed says besides where it is: compared across seeds. */
interface SeedAccess {
  readonly tls: boolean;
  readonly username: string | undefined;
  readonly password: string | undefined;
}

/** Parses the variable's value; throws an Error whose message says what is wrong. */
export function parseClusterSeeds(text: string): ClusterSeeds {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) throw new Error('must name at least one node as host:port');
  const parsed = entries.map(parseSeed);
  const [first] = parsed;
  const access = ({ tls, username, password }: SeedAccess) =>
    JSON.stringify([tls, username, password]);
  if (parsed.some((seed) => access(seed) !== access(first!))) {
    throw new Error(
      'every node must be given alike: all redis:// or all rediss://, with the same user and password',
    );
  }
  return {
    nodes: parsed.map(({ host, port }) => ({ host, port })),
    tls: first!.tls,
    username: first!.username,
    password: first!.password,
  };
}

function parseSeed(entry: string): SeedAccess & { host: string; port: number } {
  const url = /^[a-z]+:\/\//i.test(entry) ? entry : `redis://${entry}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`"${redactedSeed(entry)}" is not host:port`);
  }
  if (!/^rediss?:$/.test(parsed.protocol))
    throw new Error(`"${redactedSeed(entry)}" must be host:port, redis:// or rediss://`);
  if ((parsed.pathname !== '' && parsed.pathname !== '/') || parsed.search !== '')
    throw new Error(`"${redactedSeed(entry)}": a cluster has no databases; give host:port only`);
  const port = Number(parsed.port);
  if (parsed.hostname === '' || parsed.port === '' || !Number.isInteger(port) || port < 1)
    throw new Error(`"${redactedSeed(entry)}" must name a host and a port, as host:port`);
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    tls: parsed.protocol === 'rediss:',
    username: parsed.username === '' ? undefined : decodeURIComponent(parsed.username),
    password: parsed.password === '' ? undefined : decodeURIComponent(parsed.password),
  };
}

/** A seed without its password, for messages. */
export function redactedSeed(entry: string): string {
  return entry.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
