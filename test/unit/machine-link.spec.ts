/**
 * The conversation between a worker and the primary that keeps the machine's
 * stores (src/machine/), over a channel that delivers each message as
 * node:cluster's does: serialized to JSON, in order, in a later turn of the
 * event loop. The real channel is exercised by the WORKERS=2 spec
 * (test/scale-out/machine-workers.spec.ts); here each rule of the exchange
 * is held on its own: refusals arrive as the errors callers tell apart,
 * notes never overtake a call, calls made together travel together, and a
 * worker asks for stored entries only once it knows the primary holds them.
 */
import { describe, expect, it } from 'vitest';
import { MachineCache } from '../../src/cache/machine-cache.js';
import { MemoryCache } from '../../src/cache/memory-cache.js';
import { MachineFlightLocks, MemoryLeases } from '../../src/coordination/machine-flight-locks.js';
import { MachineKeyRegistry } from '../../src/coordination/machine-key-registry.js';
import { MachinePollLease } from '../../src/coordination/machine-poll-lease.js';
import { MemoryKeyRegistry } from '../../src/coordination/memory-key-registry.js';
import { LocalPollLease } from '../../src/coordination/memory-poll-lease.js';
import { PlanRefusal } from '../../src/economy/ledger.js';
import { MachineBudgetLedger } from '../../src/economy/machine-ledger.js';
import { MachinePopularity } from '../../src/economy/machine-popularity.js';
import { MemoryPopularity } from '../../src/economy/memory-popularity.js';
import { MachineGenerationStore } from '../../src/freshness/machine-generation-store.js';
import { MemoryGenerationStore } from '../../src/freshness/memory-generation-store.js';
import { HostedLedger } from '../../src/gateway/machine-stores.js';
import { HELD, type Invocations, type StoreName } from '../../src/machine/messages.js';
import { type Channel, PrimaryLink } from '../../src/machine/primary-link.js';
import { type HostedStores, hostStores, type Workers } from '../../src/machine/store-host.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { until } from '../support/until.js';

const KEY = 'key-1';
const ENTRY = {
  outcome: 'value' as const,
  value: { slug: 'burna-boy' },
  bytes: 100,
  storedAt: Date.now(),
  freshUntil: Date.now() + 60_000,
  staleUntil: Date.now() + 120_000,
};

/** A primary and `count` workers joined as node:cluster joins them: JSON, in order, a turn later. */
function machine(stores: HostedStores, count = 2, announced: StoreName[] = ['answers']) {
  const toPrimary: ((
    message: unknown,
    reply: (message: unknown) => void,
    sender: unknown,
  ) => void)[] = [];
  const workerListeners: ((message: unknown) => void)[][] = [];
  const delivered = (message: unknown) => JSON.parse(JSON.stringify(message)) as unknown;
  const sent: unknown[] = [];
  const replied: { type?: string }[] = [];
  const workers: Workers = {
    onMessage: (listener) => toPrimary.push(listener),
    broadcast: (message, except) => {
      for (let index = 0; index < count; index += 1)
        if (index !== except) deliverToWorker(index, message);
    },
  };
  /** Each worker's messages from the primary, as delivered. */
  const received: unknown[][] = Array.from({ length: count }, () => []);
  const deliverToWorker = (index: number, message: unknown) => {
    const copy = delivered(message);
    received[index]!.push(copy);
    setImmediate(() => {
      for (const listener of workerListeners[index] ?? []) listener(copy);
    });
  };
  hostStores(stores, workers, new Set(announced));
  const links = Array.from({ length: count }, (_, index) => {
    workerListeners[index] = [];
    const channel: Channel = {
      send: (message) => {
        sent.push(message);
        const copy = delivered(message);
        setImmediate(() => {
          for (const listener of toPrimary)
            listener(
              copy,
              (answer) => {
                replied.push(answer as { type?: string });
                deliverToWorker(index, answer);
              },
              index,
            );
        });
      },
      onMessage: (listener) => workerListeners[index]!.push(listener),
    };
    return new PrimaryLink(channel);
  });
  return { links, sent, replied, received };
}

/** How many invocations of `method` the workers sent. */
function invoked(sent: readonly unknown[], method: string): number {
  return sent
    .flatMap((message) => (message as Invocations).invocations)
    .filter((invocation) => invocation.method === method).length;
}

function hosted(overrides: Partial<Record<StoreName, object>> = {}): HostedStores {
  return {
    cache: new MemoryCache({ maxEntries: 100, maxBytes: 1_000_000 }),
    answers: new MemoryCache({ maxEntries: 100, maxBytes: 1_000_000 }),
    budget: new HostedLedger({ dailyLimit: 2, clientShare: 1 }),
    keys: new MemoryKeyRegistry(),
    leases: new MemoryLeases(),
    generations: new MemoryGenerationStore(),
    popularity: new MemoryPopularity(),
    pollLease: new LocalPollLease(),
    ...overrides,
  };
}

describe('a worker and its primary', () => {
  it('spends one budget for the machine, its refusal arriving as the RATE_LIMITED it was', async () => {
    const { links } = machine(hosted());
    const [first, second] = links.map((link) => new MachineBudgetLedger(link));
    await first!.reserve({ keyId: KEY });
    await second!.reserve({ keyId: KEY });
    const refused = await second!.reserve({ keyId: KEY }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UpstreamError);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED' });
    expect((refused as UpstreamError).resetsAt).toBe(second!.resetsAt());
    expect(await first!.usage(KEY)).toMatchObject({ used: 2, remaining: 0 });
  });

  it('gives back the plan’s refusal as a PlanRefusal with the client’s count', async () => {
    const budget = {
      reserve: async () => {
        throw new PlanRefusal(7);
      },
    };
    const { links } = machine(hosted({ budget }));
    const refused = await new MachineBudgetLedger(links[0]!)
      .reserve({ keyId: KEY })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PlanRefusal);
    expect((refused as PlanRefusal).clientPaced).toBe(7);
  });

  it('stops this worker’s next call at a 429 at once, and every worker’s once the primary hears it', async () => {
    const { links } = machine(hosted());
    const [heard, other] = links.map((link) => new MachineBudgetLedger(link));
    const daily = new UpstreamError('RATE_LIMITED', 'Daily limit of 1000 requests reached', {
      status: 429,
    });
    heard!.rateLimited(KEY, daily);
    // Before any message could have left: this worker alone knows.
    await expect(heard!.reserve({ keyId: KEY })).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await until(async () => (await other!.usage(KEY)).remaining === 0);
    await expect(other!.reserve({ keyId: KEY })).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('sends the notes made before a call ahead of it, in one message per turn', async () => {
    const { links, sent } = machine(hosted());
    const [link] = links;
    const popularity = new MachinePopularity(link!);
    popularity.record(['a', 'b']);
    popularity.record(['a']);
    // The two counts, then the question: the answer counts both.
    expect(await popularity.count('a')).toBe(2);
    expect(sent).toHaveLength(1);
    expect((sent[0] as Invocations).invocations.map(({ method }) => method)).toEqual([
      'recordCounts',
      'count',
    ]);
    // A record never asked ranks after every counted one.
    expect(await popularity.rank('never-asked')).toBe(2);
  });

  it('sends a call no waiting note holds back ahead of the notes, which keep their order', async () => {
    // The record's flight holds its lease until the note below returns it.
    const leases = new MemoryLeases();
    await leases.take('record', 'token', 60_000);
    const { links, sent } = machine(hosted({ leases }));
    const link = links[0]!;
    link.note('cache', 'set', 'record', ENTRY);
    link.note('keys', 'markAccepted', KEY);
    link.note('leases', 'release', 'record', 'token');
    const next = link.call<boolean>('leases', 'take', 'next', 'token', 60_000);
    const again = link.call<boolean>('leases', 'take', 'record', 'other', 60_000);
    const status = link.call<string>('keys', 'status', KEY);
    const usage = link.call<{ remaining: number }>('budget', 'usage', KEY);
    expect((await usage).remaining).toBe(2);
    expect(await next).toBe(true);
    const order = sent.map((message) =>
      (message as Invocations).invocations.map(
        ({ store, method, args }) => `${store}.${method} ${String(args[0])}`,
      ),
    );
    // Another resource's lease and the budget's call first, alone; the key's status stays
    // behind its store's note, and the returned lease's resource behind its return.
    expect(order).toEqual([
      ['leases.take next', 'budget.usage ' + KEY],
      [
        'cache.set record',
        `keys.markAccepted ${KEY}`,
        'leases.release record',
        'leases.take record',
        `keys.status ${KEY}`,
      ],
    ]);
    // Taken once returned, as the order promised; the key accepted before its status was read.
    expect(await again).toBe(true);
    expect(await status).toBe('accepted');
  });

  it('tells every worker but the one that stored an entry that the primary holds it', async () => {
    const { links, received } = machine(hosted(), 3);
    const caches = links.map(
      (link) =>
        new MachineCache(link, 'answers', { announced: { maxKeys: 10, beyond: 'forget-oldest' } }),
    );
    await caches[1]!.set('stored-now', ENTRY);
    const held = (index: number) =>
      received[index]!.filter((message) => (message as { type?: string }).type === HELD);
    await until(() => held(0).length === 1 && held(2).length === 1);
    expect(await caches[0]!.get('stored-now')).toEqual(ENTRY);
    expect(await caches[1]!.get('stored-now')).toEqual(ENTRY);
    expect(held(1)).toEqual([]);
  });

  it('sends the calls made together as one message, and answers them in one', async () => {
    const { links, sent, replied } = machine(hosted());
    const locks = new MachineFlightLocks(links[0]!, 60_000);
    const paths = ['a', 'b', 'c'].map((slug) => `/api/v1/artists/${slug}`);
    const leases = await Promise.all(paths.map((path) => locks.acquire(path)));
    expect(leases.every((lease) => lease !== undefined)).toBe(true);
    expect(sent).toHaveLength(1);
    expect((sent[0] as Invocations).invocations).toHaveLength(3);
    expect(replied).toEqual([
      expect.objectContaining({
        replies: [expect.anything(), expect.anything(), expect.anything()],
      }),
    ]);
  });

  it('asks the primary for a stored answer only once it knows the primary holds one', async () => {
    const answers = new MemoryCache({ maxEntries: 100, maxBytes: 1_000_000 });
    await answers.set('held-before', ENTRY);
    const { links, sent } = machine(hosted({ answers }));
    const [writer, reader] = links.map(
      (link) =>
        new MachineCache(link, 'answers', { announced: { maxKeys: 10, beyond: 'forget-oldest' } }),
    );
    // What the primary held when the worker started is known once its list arrives.
    await until(async () => (await reader!.get('held-before')) !== undefined);
    const calls = () => invoked(sent, 'get');
    const before = calls();
    expect(await reader!.get('never-stored')).toBeUndefined();
    expect(calls()).toBe(before);
    await writer!.set('stored-now', ENTRY);
    await until(async () => (await reader!.get('stored-now'))?.value !== undefined);
    expect(await reader!.get('stored-now')).toEqual(ENTRY);
  });

  it('asks for a record only once it knows the primary holds it, and for every record past its bound', async () => {
    const cache = new MemoryCache({ maxEntries: 100, maxBytes: 1_000_000 });
    await cache.set('held-before', ENTRY);
    const { links, sent } = machine(hosted({ cache }), 2, ['cache', 'answers']);
    const records = (link: PrimaryLink, maxKeys: number) =>
      new MachineCache(link, 'cache', { announced: { maxKeys, beyond: 'ask-for-every-key' } });
    const gets = () => invoked(sent, 'get');
    const [writer, reader] = [records(links[0]!, 2), records(links[1]!, 2)];
    // Before the primary's list arrives, a key missing here may be held there: it is asked for.
    const before = gets();
    expect(await reader.get('never-stored')).toBeUndefined();
    expect(gets()).toBe(before + 1);
    await until(async () => (await reader.get('held-before')) !== undefined);
    const listed = gets();
    expect(await reader.get('never-stored')).toBeUndefined();
    expect(gets()).toBe(listed);
    // Stored by another worker: announced, then read from the primary.
    await writer.set('stored-now', ENTRY);
    await until(async () => (await reader.get('stored-now')) !== undefined);
    // A third key forgets one: a record missing here may be held there again, so each is asked for.
    await writer.set('one-more', ENTRY);
    await until(async () => (await reader.get('one-more')) !== undefined);
    const full = gets();
    expect(await reader.get('never-stored')).toBeUndefined();
    expect(gets()).toBe(full + 1);
  });

  it('reads the records’ level for any key, a failure being a miss', async () => {
    const cache = {
      get: async () => {
        throw new Error('gone');
      },
    };
    const { links } = machine(hosted({ cache }));
    expect(await new MachineCache(links[0]!, 'cache').get('/api/v1/artists/x')).toBeUndefined();
  });

  it('lets one worker of two take a flight’s lease, and the other once it is released', async () => {
    const { links } = machine(hosted());
    const [one, two] = links.map((link) => new MachineFlightLocks(link, 60_000));
    const lease = await one!.acquire('/api/v1/artists/x');
    expect(lease).toBeDefined();
    expect(await two!.acquire('/api/v1/artists/x')).toBeUndefined();
    expect(await two!.isHeld('/api/v1/artists/x')).toBe(true);
    await lease!.release();
    await until(async () => !(await two!.isHeld('/api/v1/artists/x')));
    expect(await two!.acquire('/api/v1/artists/x')).toBeDefined();
  });

  it('shares a key’s status, the generation and the poll lease between workers', async () => {
    const { links } = machine(hosted());
    const [one, two] = links as [PrimaryLink, PrimaryLink];
    const prover = new MachineKeyRegistry(one);
    await prover.markAccepted(KEY);
    // The worker that proved the key knows the primary's answer without asking for it.
    expect(prover.statusNow(KEY)).toBe('accepted');
    const other = new MachineKeyRegistry(two);
    await until(async () => (await other.status(KEY)) === 'accepted');
    expect(other.statusNow(KEY)).toBe('accepted');

    const advanced = await new MachineGenerationStore(one).advance(
      [{ id: 'm1' }],
      new Date().toISOString(),
      0,
    );
    expect(await new MachineGenerationStore(two).load()).toEqual(advanced.generation);

    expect(await new MachinePollLease(one).take(60_000)).toBe(true);
    expect(await new MachinePollLease(two).take(60_000)).toBe(false);
  });

  it('relays an announcement to every worker, its sender included', async () => {
    const { links } = machine(hosted(), 3);
    const heard: string[] = [];
    for (const [index, link] of links.entries())
      link.onPublished((topic, data) => heard.push(`${index}:${topic}:${String(data)}`));
    links[1]!.publish('generation', 4);
    await until(() => heard.length === 3);
    expect(heard.sort()).toEqual(['0:generation:4', '1:generation:4', '2:generation:4']);
  });
});
