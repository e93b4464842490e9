import { afterEach, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import type { ErrorBody } from '../../src/simulator/types.js';
import { todayAtUtc } from '../support/calendar.js';
import { get, start } from '../support/simulator.js';

const MISSING = 'API key required. Pass it as the Authorization header: Bearer <API_KEY>';
const INVALID = 'Invalid or revoked API key';

let sim: Simulator;
afterEach(async () => {
  await sim.close();
});

describe('authentication', () => {
  it('401 with the exact messages; missing, malformed, unknown and revoked keys', async () => {
    sim = await start({ artists: 20, apiKeys: ['k1', 'k2'], revokedKeys: ['k2'] });
    const unauthorized = (message: string) => ({
      status: 401,
      body: { statusCode: 401, error: 'Unauthorized', message },
    });
    const pick = ({ status, body }: { status: number; body: unknown }) => ({ status, body });
    expect(pick(await get(sim, '/api/v1/charts', null))).toEqual(unauthorized(MISSING));
    const basic = await fetch(`${sim.url}/api/v1/charts`, {
      headers: { authorization: 'Basic abc' },
    });
    expect({ status: basic.status, body: await basic.json() }).toEqual(unauthorized(MISSING));
    expect(pick(await get(sim, '/api/v1/charts', 'nope'))).toEqual(unauthorized(INVALID));
    expect(pick(await get(sim, '/api/v1/charts', 'k2'))).toEqual(unauthorized(INVALID));
    expect(pick(await get(sim, '/api/v1/nothing', null))).toEqual(unauthorized(MISSING));
    expect((await get(sim, '/api/v1/charts', 'k1')).status).toBe(200);
    expect(sim.calls.map((c) => [c.key, c.status])).toEqual([
      [null, 401],
      [null, 401],
      ['nope', 401],
      ['k2', 401],
      [null, 401],
      ['k1', 200],
    ]);
  });
});

describe('daily budget', () => {
  it('counts authenticated requests per key per UTC day, then answers 429 until midnight UTC', async () => {
    // A minute before the real next midnight (UTC), then a second past it.
    const midnight = todayAtUtc(24);
    let now = new Date(midnight - 60_000);
    sim = await start({ artists: 20, apiKeys: ['a', 'b'], dailyLimit: 3, now: () => now });
    await get(sim, '/api/v1/charts', 'bad'); // 401s do not count
    expect((await get(sim, '/api/v1/charts', 'a')).status).toBe(200);
    expect((await get(sim, '/api/v1/artists/nobody', 'a')).status).toBe(404); // errors count
    expect((await get(sim, '/api/v1/charts', 'a')).status).toBe(200);
    const over = await get<ErrorBody>(sim, '/api/v1/charts', 'a');
    expect(over).toMatchObject({
      status: 429,
      body: {
        statusCode: 429,
        error: 'Too Many Requests',
        message: 'Daily limit of 3 requests reached. Resets at midnight UTC.',
      },
    });
    expect((await get(sim, '/api/v1/artists/nobody', 'a')).status).toBe(429);
    expect((await get(sim, '/api/v1/charts', 'b')).status).toBe(200); // per key
    now = new Date(midnight + 1_000);
    expect((await get(sim, '/api/v1/charts', 'a')).status).toBe(200);
  });

  it('resetUsage forgets the counts', async () => {
    sim = await start({ artists: 20, dailyLimit: 1 });
    expect((await get(sim, '/api/v1/charts')).status).toBe(200);
    expect((await get(sim, '/api/v1/charts')).status).toBe(429);
    sim.resetUsage();
    expect((await get(sim, '/api/v1/charts')).status).toBe(200);
  });
});
