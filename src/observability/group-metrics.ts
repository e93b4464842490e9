/**
 * `/metrics` for a group of workers (WORKERS > 1): a scrape reaches whichever
 * worker node:cluster hands the connection to, and that worker alone knows
 * only its own counters, so a dashboard summing a deployment's scrapes
 * would miss the others. Instead the worker asks the primary, which gathers
 * every worker's figures with prom-client's AggregatorRegistry (counters
 * and histograms added up; each gauge as its own aggregator says) and sends
 * the exposition back: every scrape shows the whole group.
 */
import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { GatewayMetrics } from './metrics.js';

const ASK = 'gateway:group-metrics?';
const ANSWER = 'gateway:group-metrics';
/** prom-client gives a worker 5 s to answer the primary; the asking worker waits a little longer. */
const GROUP_SCRAPE_TIMEOUT_MS = 6_000;

interface Ask {
  readonly type: typeof ASK;
  readonly id: number;
}

interface Answer {
  readonly type: typeof ANSWER;
  readonly id: number;
  readonly text?: string;
  readonly error?: string;
}

/** In the primary: answers every worker's request for the group's exposition. */
export function serveGroupMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: Partial<Ask>) => {
    if (message?.type !== ASK || typeof message.id !== 'number') return;
    const { id } = message;
    const reply = (answer: Omit<Answer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id, ...answer } satisfies Answer);
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: unknown) => reply({ error: (error as Error).message }),
    );
  });
}

/**
 * In a worker: `metrics` is this worker's share of the group's figures (prom-client answers the
 * primary with its registry), and a scrape of it shows the whole group.
 */
export function joinGroupMetrics(metrics: GatewayMetrics): void {
  // Constructed for its side effect: prom-client answers the primary's requests in a worker.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([metrics.registry]);
  const pending = new Map<number, (answer: Answer) => void>();
  let next = 0;
  process.on('message', (message: Partial<Answer>) => {
    if (message?.type !== ANSWER || typeof message.id !== 'number') return;
    pending.get(message.id)?.(message as Answer);
  });
  metrics.registry.answerWithGroup(
    () =>
      new Promise<string>((resolve, reject) => {
        const id = next++;
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error('the primary did not send the group metrics in time'));
        }, GROUP_SCRAPE_TIMEOUT_MS);
        pending.set(id, (answer) => {
          clearTimeout(timer);
          pending.delete(id);
          if (answer.text !== undefined) resolve(answer.text);
          else reject(new Error(answer.error ?? 'no group metrics'));
        });
        process.send?.({ type: ASK, id } satisfies Ask);
      }),
  );
}
