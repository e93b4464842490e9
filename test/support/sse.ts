/**
 * A GraphQL-over-SSE subscriber as a browser's EventSource would be: one GET
 * with `Accept: text/event-stream`, reading `next` events as they arrive.
 */
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
