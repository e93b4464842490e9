/**
 * A GraphQL-over-SSE subscriber as a browser's EventSource would be: one GET
 * with `Accept: text/event-stream`, reading `next` events as they arrive.
 */
import { expect } from 'vitest';
import { until } from './until.js';

export interface Subscriber {
  /** Every `data` of a `next` event so far, parsed. */
  readonly events: { data?: Record<string, unknown>; errors?: unknown[] }[];
  close(): void;
}

export async function subscribe(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
): Promise<Subscriber> {
  const params = new URLSearchParams({
    query,
    ...(variables ? { variables: JSON.stringify(variables) } : {}),
  });
  const controller = new AbortController();
  const response = await fetch(`${url}/graphql?${params}`, {
    headers: { accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (response.status !== 200 || response.body === null)
    throw new Error(`subscription refused: ${response.status} ${await response.text()}`);
  const events: Subscriber['events'] = [];
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          if (!lines.includes('event: next')) continue;
          const data = lines
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          events.push(JSON.parse(data) as Subscriber['events'][number]);
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  return { events, close: () => controller.abort() };
}

/**
 * Each subscriber received `milestoneCrossed` once: waits for every one to have an event, then
 * for three more polls (`polls()` counts them), none of which may announce it again.
 */
export async function announcedOnceEach(
  subscribers: readonly Subscriber[],
  polls: () => number,
  milestoneCrossed: Record<string, unknown>,
): Promise<void> {
  await until(() => subscribers.every((subscriber) => subscriber.events.length >= 1));
  const after = polls();
  await until(() => polls() >= after + 3);
  for (const subscriber of subscribers)
    expect(subscriber.events).toEqual([{ data: { milestoneCrossed } }]);
}
