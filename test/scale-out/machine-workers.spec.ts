/**
 * WORKERS=2 without Redis: two cluster workers on one port share the stores
 * their primary keeps for the machine (src/machine/). Against one simulator
 * (calls counted there) and with every wait a condition: one poll per
 * interval for the machine, one flight and one budget for a resource many
 * requests want at once, stored answers one worker made served by the other,
 * a milestone reaching each subscriber once, a refresh seen by both workers
 * for one call, the day’s count kept in the budget file across a restart, and
 * an unreadable budget file refused at start.
 */

import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { pollsSeen, type Replica, runToExit, startReplica, until } from '../support/replicas.js';
import { announcedOnceEach, type Subscriber, subscribe } from '../support/sse.js';
import { SERVER_KEY } from '../support/stack.js';

const POLL_PATH = '/api/v1/milestones/recent';
const SUBSCRIPTION = 'subscription { milestoneCrossed { id threshold artist { slug name } } }';

let simulator: Simulator;
let gateway: Replica;
const budgetFile = join(tmpdir(), `gateway-machine-${randomUUID()}.json`);
const subscribers: Subscriber[] = [];

const env = () => ({
  UPSTREAM_URL: simulator.url,
  UPSTREAM_API_KEY: SERVER_KEY,
  UPSTREAM_DAILY_LIMIT: '1000000',
  REFRESH_POLL_SECONDS: '1',
  WORKERS: '2',
  BUDGET_FILE: budgetFile,
  // The request log names the worker of each line: which worker answered what.
  LOG_LEVEL: 'info',
});

beforeAll(async () => {
  simulator = await startSimulator({
    apiKeys: [SERVER_KEY],
    dailyLimit: 1_000_000,
    latencyMs: 100,
  });
  gateway = await startReplica(env());
  // Both workers listen before anything is asked: node:cluster hands connections to those that do.
  await until(() => gateway.output().match(/"msg":"gateway listening"/g)?.length === 2);
}, 90_000);

afterAll(async () => {
  for (const subscriber of subscribers) subscriber.close();
  await gateway?.stop('SIGTERM');
  await simulator?.close();
});

const callsTo = (path: string) => simulator.calls.filter((call) => call.rawPath === path).length;
const polls = () => callsTo(POLL_PATH);
const upstreamCalls = () => simulator.calls.filter((call) => call.rawPath !== POLL_PATH).length;

/** One POST over a connection of its own: node:cluster hands each new connection to the next worker. */
function postAlone(url: string, query: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ query });
    const sent = request(
      `${url}/graphql`,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve(JSON.parse(text)));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The day's calls the gateway has counted. */
async function usedToday(): Promise<number> {
  const answer = (await postAlone(gateway.url, '{ apiUsage { used } }')) as {
    data: { apiUsage: { used: number } };
  };
  return answer.data.apiUsage.used;
}

interface RequestLine {
  readonly worker: number;
  readonly operation?: string;
  readonly responseCache?: string;
  /** A summary of response-cache hits: how many it stands for. */
  readonly requests?: number;
}

/** How many requests `lines` stand for: one a line, a summary of hits its count. */
const requestsLogged = (lines: readonly RequestLine[]) =>
  lines.reduce((sum, line) => sum + (line.requests ?? 1), 0);

/** The request log's lines for `operation`, as the workers wrote them. */
function requestLines(operation: string): RequestLine[] {
  return gateway
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as RequestLine)
    .filter((line) => line.operation === operation);
}

describe('WORKERS=2 without Redis: the machine shares its primary’s stores', () => {
  it('polls once per interval for the machine, whichever worker asks', async () => {
    const { made, seconds } = await pollsSeen(polls, 4);
    // Two workers, each trying several times a second: still one poll per second, give or take one.
    expect(made).toBeLessThanOrEqual(seconds + 1);
  });

  it('makes one upstream call, counted once, for a record 20 requests on both workers want at once', async () => {
    const slug = simulator.data.allArtists()[3]!.slug;
    const before = upstreamCalls();
    // Each its own document and connection, so that none is a stored answer and both workers take some.
    const answers = (await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        postAlone(gateway.url, `query Wanted${index} { artist(slug: "${slug}") { name } }`),
      ),
    )) as { data?: { artist?: { name: string } }; errors?: unknown }[];
    for (const answer of answers) {
      expect(answer.errors).toBeUndefined();
      expect(answer.data?.artist?.name).toBe(simulator.data.artistBySlug(slug)!.name);
    }
    expect(callsTo(`/api/v1/artists/${slug}`)).toBe(1);
    expect(upstreamCalls() - before).toBe(1);
    const wanted = () =>
      Array.from({ length: 20 }, (_, index) => requestLines(`Wanted${index}`)).flat();
    // The log writes its lines in batches: all twenty, once they are out.
    await until(() => wanted().length === 20);
    expect(new Set(wanted().map((line) => line.worker))).toEqual(new Set([1, 2]));
    // One budget: the machine's count is the calls the simulator saw (the polls included; one
    // may be counted and on its way at the moment of asking).
    await until(async () => (await usedToday()) === simulator.calls.length);
  });

  it('serves an answer one worker stored from the other worker too', async () => {
    const query = 'query SharedAnswer { topArtistsByStreams(limit: 3) { rank artist { slug } } }';
    // A worker stores an operation's answer at its second miss; one that has not missed twice
    // yet answers from the stored bytes only if it reads the machine's store.
    // Each request once the one before it is done and logged: a worker writes a miss's line after
    // it stored the answer, so the next request finds the store told, whichever worker takes it
    // (a hit is counted in its worker's next summary of hits).
    for (let request = 1; request <= 8; request += 1) {
      await postAlone(gateway.url, query);
      await until(() => requestsLogged(requestLines('SharedAnswer')) === request);
    }
    const lines = requestLines('SharedAnswer');
    const byWorker = (worker: number) => lines.filter((line) => line.worker === worker);
    const misses = (worker: number) =>
      byWorker(worker).filter((line) => line.responseCache !== 'hit').length;
    expect(requestsLogged(byWorker(1))).toBeGreaterThan(0);
    expect(requestsLogged(byWorker(2))).toBeGreaterThan(0);
    // Two misses stored it in one worker; the other answered from it after at most one of its own.
    expect(Math.min(misses(1), misses(2))).toBeLessThanOrEqual(1);
    expect(misses(1) + misses(2)).toBeLessThanOrEqual(3);
  });

  it('announces a published milestone to each subscriber of either worker exactly once', async () => {
    // Each subscription its own connection: node:cluster spreads them over both workers.
    for (let index = 0; index < 4; index += 1)
      subscribers.push(await subscribe(gateway.url, SUBSCRIPTION));
    const slug = simulator.data.allArtists()[5]!.slug;
    const published = simulator.publishMilestone(slug)!;
    await announcedOnceEach(subscribers, polls, {
      id: published.id,
      threshold: published.threshold,
      artist: { slug, name: published.artistName },
    });
  });

  it('refreshes a record held by both workers for one call once the upstream refreshes', async () => {
    const slug = simulator.data.allArtists()[9]!.slug;
    const path = `/api/v1/artists/${slug}`;
    const read = async () =>
      (
        (await postAlone(gateway.url, `{ artist(slug: "${slug}") { totalStreams } }`)) as {
          data?: { artist?: { totalStreams: number } };
        }
      ).data?.artist?.totalStreams;
    const before = await read();
    // Both workers read it: the second from the machine's cache, at no cost.
    await read();
    expect(callsTo(path)).toBe(1);

    simulator.publishMilestone(slug);
    const now = simulator.data.artistBySlug(slug)!.totalStreams;
    expect(now).toBeGreaterThan(before as number);
    // Reads on both workers: the held answer at once, one refresh for the machine, then the new value.
    await until(async () => (await read()) === now && (await read()) === now);
    expect(callsTo(path)).toBe(2);
  });

  it('keeps the day’s count in the budget file across a restart of the group', async () => {
    const counted = await usedToday();
    expect(counted).toBeGreaterThan(0);
    for (const subscriber of subscribers.splice(0)) subscriber.close();
    await gateway.stop('SIGTERM');
    expect(gateway.process.exitCode).toBe(0);
    const callsBefore = simulator.calls.length;
    gateway = await startReplica(env());
    // The restarted group counts on from the file, and every poll it has made since.
    await until(
      async () => (await usedToday()) === counted + (simulator.calls.length - callsBefore),
    );
  }, 60_000);

  it('refuses to start on a budget file it cannot read, as one process does (status 2)', async () => {
    const unreadable = join(tmpdir(), `gateway-machine-${randomUUID()}.json`);
    writeFileSync(unreadable, 'not a budget');
    try {
      const { code, output } = await runToExit({ ...env(), BUDGET_FILE: unreadable });
      expect(code).toBe(2);
      expect(output).toContain(`BUDGET_FILE: ${unreadable} is not a budget file`);
    } finally {
      rmSync(unreadable, { force: true });
    }
  });
});
