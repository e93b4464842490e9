/**
 * The upstream client in a process of its own, for the TLS test of warm
 * connections (test/warm-connections-tls.spec.ts): Node reads the test's CA
 * (NODE_EXTRA_CA_CERTS) only when a process starts. Over IPC: it is told to
 * expect `calls` calls, says so, and on `go` makes them all at once and
 * answers with their outcomes.
 */
import { UpstreamClient } from '../../src/upstream/client.js';

const baseUrl = process.env.WARM_TLS_BASE_URL;
const calls = Number(process.env.WARM_TLS_CALLS);
if (baseUrl === undefined || !(calls > 0) || process.send === undefined)
  throw new Error('started by test/warm-connections-tls.spec.ts');

const client = new UpstreamClient({
  baseUrl,
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 5_000,
  bodyTimeoutMs: 5_000,
  maxConcurrency: 16,
  maxQueue: 100,
  maxBodyBytes: 1024 * 1024,
});
client.expectCalls(calls);
process.send('expecting');
process.once('message', async () => {
  const outcomes = await Promise.all(
    Array.from({ length: calls }, (_, index) =>
      client.get(`/api/v1/artists/a-${index}`, 'key', AbortSignal.timeout(10_000)).then(
        ({ body }) => JSON.stringify(body),
        (error: unknown) => `failed: ${(error as Error).message}`,
      ),
    ),
  );
  await client.close();
  process.send!(outcomes, () => process.exit(0));
});
