import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { get, KEY, start } from '../support/simulator.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await start({ artists: 20 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  sim.clearFaults();
  sim.resetCalls();
  sim.setLatency(0);
});

const auth = { authorization: `Bearer ${KEY}` };

describe('call log', () => {
  it('records every request in order with decoded segments, query, key and status', async () => {
    await get(sim, '/api/v1/charts/itunes_daily_ng/NG?limit=2&extra=x');
    await get(sim, '/api/v1/charts', null);
    expect(sim.calls).toEqual([
      {
        method: 'GET',
        rawPath: '/api/v1/charts/itunes_daily_ng/NG',
        segments: ['api', 'v1', 'charts', 'itunes_daily_ng', 'NG'],
        query: { limit: '2', extra: 'x' },
        key: KEY,
        status: 200,
        at: expect.any(Number),
      },
      {
        method: 'GET',
        rawPath: '/api/v1/charts',
        segments: ['api', 'v1', 'charts'],
        query: {},
        key: null,
        status: 401,
        at: expect.any(Number),
      },
    ]);
    const before = sim.calls;
    sim.resetCalls();
    expect(sim.calls).toEqual([]);
    expect(before).toHaveLength(2);
  });
});

describe('faults', () => {
  it('status: answers the status with a standard error body, Retry-After, limited times, by path prefix', async () => {
    sim.injectFault(
      { kind: 'status', status: 503, retryAfterSeconds: 7 },
      { path: '/api/v1/charts', times: 1 },
    );
    const first = await get(sim, '/api/v1/charts');
    expect(first).toMatchObject({
      status: 503,
      body: { statusCode: 503, error: 'Service Unavailable', message: 'Service Unavailable' },
    });
    expect(first.headers.get('retry-after')).toBe('7');
    expect((await get(sim, '/api/v1/charts')).status).toBe(200);
    sim.injectFault({ kind: 'status', status: 500 }, { path: /\/leaderboard\// });
    expect((await get(sim, '/api/v1/leaderboard/streams')).body).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'An unexpected error occurred',
    });
    expect((await get(sim, '/api/v1/leaderboard/songs')).status).toBe(500);
    expect((await get(sim, '/api/v1/charts')).status).toBe(200);
    sim.injectFault({ kind: 'status', status: 429, body: { custom: true } });
    expect(await get(sim, '/api/v1/charts')).toMatchObject({ status: 429, body: { custom: true } });
    expect(sim.calls.map((c) => c.status)).toEqual([503, 200, 500, 500, 200, 429]);
  });

  it('delay: answers normally after the delay; latency adds to every response', async () => {
    sim.injectFault({ kind: 'delay', ms: 120 }, { times: 1 });
    let started = Date.now();
    expect((await get(sim, '/api/v1/charts')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    sim.setLatency(80);
    started = Date.now();
    expect((await get(sim, '/api/v1/charts', null)).status).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(70);
  });

  it('hold: answers normally once its promise settles, and not before', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    sim.injectFault({ kind: 'hold', until: held }, { path: '/api/v1/charts', times: 1 });
    const pending = get(sim, '/api/v1/charts');
    while (sim.calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(sim.calls[0]?.status).toBe(0);
    release();
    expect((await pending).status).toBe(200);
    expect(sim.calls[0]?.status).toBe(200);
  });

  it('hang: never answers, until stop drops the connection; start listens again on the same port', async () => {
    sim.injectFault({ kind: 'hang' }, { times: 1 });
    const port = sim.port;
    const pending = fetch(`${sim.url}/api/v1/charts`, { headers: auth }).then(
      () => 'answered',
      () => 'failed',
    );
    const early = await Promise.race([
      pending,
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 150)),
    ]);
    expect(early).toBe('still waiting');
    await sim.stop();
    expect(await pending).toBe('failed');
    await expect(fetch(`${sim.url}/api/v1/charts`, { headers: auth })).rejects.toThrow();
    await sim.start();
    expect(sim.port).toBe(port);
    expect((await get(sim, '/api/v1/charts')).status).toBe(200);
    expect(sim.calls[0]?.status).toBe(0);
  });

  it('reset: destroys the socket without a response', async () => {
    sim.injectFault({ kind: 'reset' }, { times: 1 });
    await expect(fetch(`${sim.url}/api/v1/charts`, { headers: auth })).rejects.toThrow();
    expect((await get(sim, '/api/v1/charts')).status).toBe(200);
  });

  it('raw: serves the body as given (truncated JSON, HTML)', async () => {
    sim.injectFault({ kind: 'raw', body: '{"data": [1, 2' }, { times: 1 });
    let response = await fetch(`${sim.url}/api/v1/charts`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"data": [1, 2');
    sim.injectFault(
      { kind: 'raw', status: 502, contentType: 'text/html', body: '<html>Bad gateway</html>' },
      { times: 1 },
    );
    response = await fetch(`${sim.url}/api/v1/charts`, { headers: auth });
    expect([response.status, response.headers.get('content-type'), await response.text()]).toEqual([
      502,
      'text/html',
      '<html>Bad gateway</html>',
    ]);
  });

  it('stream: 200 JSON sending exactly that many bytes of an array that never closes', async () => {
    sim.injectFault({ kind: 'stream', bytes: 100_000 }, { times: 1 });
    const received = await new Promise<{ status: number; type: string | undefined; text: string }>(
      (resolve, reject) => {
        const request = httpRequest(`${sim.url}/api/v1/charts`, { headers: auth }, (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
            if (text.length >= 100_000) {
              resolve({
                status: response.statusCode ?? 0,
                type: response.headers['content-type'],
                text,
              });
              request.destroy();
            }
          });
          response.on('end', () => reject(new Error('the stream ended')));
        });
        request.on('error', () => undefined);
        request.end();
      },
    );
    expect(received.status).toBe(200);
    expect(received.type).toMatch(/^application\/json/);
    expect(received.text).toHaveLength(100_000);
    expect(received.text.startsWith('[{"n":0},')).toBe(true);
    expect((await get(sim, '/api/v1/charts')).status).toBe(200);
  });

  it('faults skip authentication and the budget', async () => {
    sim.injectFault({ kind: 'status', status: 502 }, { times: 1 });
    expect((await get(sim, '/api/v1/charts', null)).status).toBe(502);
  });
});

describe('connections', () => {
  it('counts each accepted connection; with handshakeMs, a new connection answers no sooner than handshake plus latency', async () => {
    const slow = await start({ artists: 20, handshakeMs: 150, latencyMs: 20 });
    try {
      const before = slow.connectionsAccepted;
      const started = performance.now();
      // A new connection each: no keep-alive agent shares them.
      const first = await rawStatus(slow.url);
      expect(first).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(165);
      expect(slow.connectionsAccepted - before).toBe(1);
      await rawStatus(slow.url);
      expect(slow.connectionsAccepted - before).toBe(2);
    } finally {
      await slow.close();
    }
  });
});

function rawStatus(base: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${base}/api/v1/charts`,
      { headers: { ...auth, connection: 'close' }, agent: false },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode));
      },
    );
    request.on('error', reject);
    request.end();
  });
}
