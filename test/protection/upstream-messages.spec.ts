/**
 * Client-facing messages are the gateway's own (issue 10, item 11): built
 * from the code and the resource, never the upstream's text, which may carry
 * a key or an internal host. That text is logged at debug level, redacted.
 */
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Fault } from '../../src/simulator/index.js';
import { type GraphQLResponse, SERVER_KEY, type Stack, startStack } from '../support/stack.js';

const HOSTILE_TEXT =
  `lookup failed on internal-db.corp.example:5432 for key ${SERVER_KEY} ` +
  '(Authorization: Bearer sk_live_abc123, api_key=sk_live_999, https://admin:hunter2@10.0.0.7/x)';
const SECRETS = [SERVER_KEY, 'sk_live_abc123', 'sk_live_999', 'hunter2'];

const logLines: string[] = [];
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    gateway: {
      retries: 0,
      logger: pino({ level: 'debug' }, { write: (line: string) => logLines.push(line) }),
    },
  });
});
afterAll(() => stack.close());
afterEach(() => stack.simulator.clearFaults());

const hostileBody = (status: number) => ({
  statusCode: status,
  error: 'Error',
  message: HOSTILE_TEXT,
});
const fault = (status: number): Fault => ({ kind: 'status', status, body: hostileBody(status) });

/** A fresh artist slug per test: nothing cached for it yet. */
let next = 10;
const freshArtist = () => stack.simulator.data.allArtists()[next++]!.slug;

function onlyError(response: GraphQLResponse) {
  expect(response.body.errors).toHaveLength(1);
  const raw = JSON.stringify(response.body);
  expect(raw).not.toContain('internal-db');
  for (const secret of SECRETS) expect(raw).not.toContain(secret);
  return response.body.errors![0]!;
}

describe('messages clients see', () => {
  it('404 on an artist → NOT_FOUND in the gateway’s words', async () => {
    const slug = freshArtist();
    stack.simulator.injectFault(fault(404), { path: `/api/v1/artists/${slug}` });
    const error = onlyError(await stack.query(`{ artist(slug: "${slug}") { name } }`));
    expect(error).toMatchObject({
      message: `Artist "${slug}" not found`,
      extensions: { code: 'NOT_FOUND', upstreamStatus: 404 },
    });
  });

  it('404s of songs, albums, charts, histories and timelines name the missing record, from the cache too', async () => {
    const artist = freshArtist();
    for (const path of [
      `/api/v1/artists/${artist}`,
      '/api/v1/songs/ghost-song',
      '/api/v1/albums/ghost-album',
      '/api/v1/charts/ghost/UK',
    ]) {
      stack.simulator.injectFault(fault(404), { path });
    }
    const query = `{
      song(slug: "ghost-song") { title }
      album(slug: "ghost-album") { title }
      chart(name: "ghost", territory: "UK") { name }
      artist(slug: "${artist}") { name }
    }`;
    const before = stack.simulator.calls.length;
    for (const round of ['upstream', 'cache']) {
      const response = await stack.query(query);
      const raw = JSON.stringify(response.body);
      expect(raw, round).not.toContain('internal-db');
      const messages = Object.fromEntries(
        (response.body.errors ?? []).map((e) => [e.path?.[0], [e.message, e.extensions?.code]]),
      );
      expect(messages, round).toEqual({
        song: ['Song "ghost-song" not found', 'NOT_FOUND'],
        album: ['Album "ghost-album" not found', 'NOT_FOUND'],
        chart: ['Chart "ghost/UK" not found', 'NOT_FOUND'],
        artist: [`Artist "${artist}" not found`, 'NOT_FOUND'],
      });
    }
    // The second round came from the cache of not-found answers.
    expect(stack.simulator.calls.length - before).toBe(4);
  });

  it.each([
    [400, 'BAD_USER_INPUT', 'The upstream API refused the parameters of the artist request'],
    [500, 'UPSTREAM_ERROR', 'The upstream API failed to answer the artist request (HTTP 500)'],
    [503, 'UPSTREAM_ERROR', 'The upstream API failed to answer the artist request (HTTP 503)'],
  ])('%i with a hostile body → %s with the gateway’s message', async (status, code, message) => {
    const slug = freshArtist();
    stack.simulator.injectFault(fault(status), { path: `/api/v1/artists/${slug}` });
    const error = onlyError(await stack.query(`{ artist(slug: "${slug}") { name } }`));
    expect(error).toMatchObject({ message, extensions: { code, upstreamStatus: status } });
  });

  it('the upstream text goes to the debug log, redacted, and nowhere above debug', async () => {
    const slug = freshArtist();
    const from = logLines.length;
    stack.simulator.injectFault(fault(404), { path: `/api/v1/artists/${slug}` });
    await stack.query(`{ artist(slug: "${slug}") { name } }`);
    const lines = logLines.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);
    const entry = lines.find((line) => line.msg === 'upstream error answer');
    expect(entry).toMatchObject({
      level: 20,
      code: 'NOT_FOUND',
      status: 404,
      resource: 'artist',
      path: `/api/v1/artists/${slug}`,
    });
    const text = entry!.upstreamText as string;
    expect(text).toContain('internal-db.corp.example');
    expect(text).toContain('[REDACTED]');
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    for (const line of lines.filter((l) => (l.level as number) > 20))
      expect(JSON.stringify(line)).not.toContain('internal-db');
  });
});

describe('pass-through: the upstream’s 429 and 401 texts stay out too', () => {
  let passThrough: Stack;
  beforeAll(async () => {
    passThrough = await startStack({
      passThrough: true,
      sharedSimulator: stack.simulator,
      gateway: { retries: 0 },
    });
  });
  afterAll(() => passThrough.close());

  // Not the upstream's daily-limit wording, so a pause (issue 9), told in the gateway's words.
  it('429 → RATE_LIMITED with the pause message and resetsAt', async () => {
    const slug = freshArtist();
    stack.simulator.injectFault(fault(429), { path: `/api/v1/artists/${slug}` });
    const response = await passThrough.query(`{ artist(slug: "${slug}") { name } }`, undefined, {
      authorization: 'Bearer test-other-client-key',
    });
    const error = onlyError(response);
    expect(error.extensions?.code).toBe('RATE_LIMITED');
    expect(error.message).toBe('The upstream API asked for a pause; retry in 10 s');
    expect(error.extensions?.resetsAt).toEqual(expect.any(String));
  });

  it('401 → UNAUTHENTICATED, HTTP 401, the gateway’s message', async () => {
    const slug = freshArtist();
    stack.simulator.injectFault(fault(401), { path: `/api/v1/artists/${slug}` });
    const response = await passThrough.query(`{ artist(slug: "${slug}") { name } }`, undefined, {
      authorization: 'Bearer some-unknown-key',
    });
    expect(response.status).toBe(401);
    expect(onlyError(response)).toMatchObject({
      message: 'Invalid or revoked API key',
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });
});
