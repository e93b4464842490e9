/** Per-client rate limiting in server-key mode: one client over its limit, another still served. */
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphQLResponse, type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    gateway: { protection: { rateLimit: { requests: 3, windowSeconds: 60 } } },
  });
});
afterAll(() => stack.close());

/** A client at its own loopback address (127.0.0.0/8 all reach the gateway on Linux). */
function clientAt(address: string) {
  const dispatcher = new Agent({ localAddress: address });
  return {
    async query(query: string) {
      // undici's own fetch: Node's built-in one may not take a dispatcher of another undici version.
      const response = await undiciFetch(`${stack.url}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json',
        },
        body: JSON.stringify({ query }),
        dispatcher,
      });
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as {
          data?: unknown;
          errors?: GraphQLResponse['body']['errors'];
        },
      };
    },
    close: () => dispatcher.close(),
  };
}

describe('per-client rate limit (3 requests per 60 s)', () => {
  it('answers the 4th request of one client 429 RATE_LIMITED with Retry-After; another client still gets through', async () => {
    const noisy = clientAt('127.0.0.2');
    const quiet = clientAt('127.0.0.3');
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1)
        statuses.push((await noisy.query('{ apiUsage { used } }')).status);
      expect(statuses).toEqual([200, 200, 200]);

      const calls = stack.upstreamCalls();
      const limited = await noisy.query('{ charts { name } }');
      expect(limited.status).toBe(429);
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.body.data).toBeUndefined();
      expect(limited.body.errors?.[0]?.extensions).toMatchObject({
        code: 'RATE_LIMITED',
        retryAfterSeconds: retryAfter,
      });
      expect(stack.upstreamCalls()).toBe(calls);

      const other = await quiet.query('{ apiUsage { used } }');
      expect(other.status).toBe(200);
      expect(other.body.errors).toBeUndefined();
    } finally {
      await noisy.close();
      await quiet.close();
    }
  });

  it('with a trusted proxy, tells clients apart by the address the proxy appended to X-Forwarded-For', async () => {
    const proxied = await startStack({
      sharedSimulator: stack.simulator,
      gateway: { protection: { rateLimit: { requests: 1, windowSeconds: 60, trustProxy: true } } },
    });
    try {
      // The first entry is the client's own claim and changes nothing: both requests are "10.0.0.1".
      const first = await proxied.query('{ apiUsage { used } }', undefined, {
        'x-forwarded-for': '1.1.1.1, 10.0.0.1',
      });
      const second = await proxied.query('{ apiUsage { used } }', undefined, {
        'x-forwarded-for': '2.2.2.2, 10.0.0.1',
      });
      const other = await proxied.query('{ apiUsage { used } }', undefined, {
        'x-forwarded-for': '10.0.0.2',
      });
      expect([first.status, second.status, other.status]).toEqual([200, 429, 200]);
    } finally {
      await proxied.close();
    }
  });

  it('counts GraphiQL page loads too: the 4th gets 429 with Retry-After, not the 2 MB page', async () => {
    const dispatcher = new Agent({ localAddress: '127.0.0.5' });
    try {
      const load = () =>
        undiciFetch(`${stack.url}/graphql`, { headers: { accept: 'text/html' }, dispatcher });
      for (let i = 0; i < 3; i++) {
        const page = await load();
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('<html');
      }
      const refused = await load();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = (await refused.json()) as { errors: { extensions: { code: string } }[] };
      expect(body.errors[0]?.extensions.code).toBe('RATE_LIMITED');
    } finally {
      await dispatcher.close();
    }
  });

  it('is not applied in pass-through mode, where each client spends its own key', async () => {
    const passThrough = await startStack({
      passThrough: true,
      sharedSimulator: stack.simulator,
      gateway: { protection: { rateLimit: { requests: 1, windowSeconds: 60 } } },
    });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) {
        statuses.push(
          (
            await passThrough.query('{ apiUsage { used } }', undefined, {
              authorization: 'Bearer test-client-key',
            })
          ).status,
        );
      }
      expect(statuses).toEqual([200, 200, 200]);
    } finally {
      await passThrough.close();
    }
  });
});
