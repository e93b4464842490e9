/**
 * The example app's "New milestones" ticker in headless Chromium: a milestone
 * published in the simulator appears on the open leaderboard page, without a
 * reload, once the gateway's refresh poll sees it (fed over SSE by
 * graphql-sse's client). In pass-through mode every request carries the
 * client's key, the subscription's included (EventSource could send none).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatCount } from '../../examples/web/src/format.js';
import {
  type Browser,
  launchBrowser,
  type StaticServer,
  screenshot,
  serveApp,
} from '../support/browser.js';
import { CLIENT_KEY, type Stack, startStack } from '../support/stack.js';

let stack: Stack;
let app: StaticServer;
let browser: Browser;

beforeAll(async () => {
  app = await serveApp();
  // An hour between polls: the test polls itself once the page listens.
  stack = await startStack({ gateway: { refreshPollMs: 3_600_000 } });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await app?.close();
});

it("pass-through mode: the page's queries and its subscription carry the client's key", async () => {
  const keyed = await startStack({ passThrough: true, sharedSimulator: stack.simulator });
  const page = await browser.newPage();
  try {
    const listening = page.waitForResponse(
      (response) =>
        response.url().startsWith(`${keyed.url}/graphql`) &&
        response.request().headers().accept === 'text/event-stream',
    );
    const api = encodeURIComponent(`${keyed.url}/graphql`);
    await page.goto(`${app.url}/?api=${api}&key=${CLIENT_KEY}#/`);
    const subscription = await listening;
    expect(subscription.status()).toBe(200);
    expect(subscription.request().headers().authorization).toBe(`Bearer ${CLIENT_KEY}`);
    await expect
      .poll(() => page.getByTestId('top-artist').count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    const open = async () =>
      /^gateway_subscriptions_open (\d+)/m.exec(await keyed.gateway.metrics.scrape())?.[1];
    await expect.poll(open, { timeout: 15_000 }).toBe('1');
  } finally {
    await page.close();
    await keyed.close();
  }
});

it('a milestone published upstream appears in the ticker without a reload', async () => {
  const poll = stack.gateway.refreshPoll!;
  await poll.pollNow();
  const page = await browser.newPage();
  try {
    const listening = page.waitForResponse(
      (response) =>
        response.url().startsWith(`${stack.url}/graphql`) &&
        response.request().headers().accept === 'text/event-stream',
    );
    let loads = 0;
    page.on('load', () => (loads += 1));
    await page.goto(`${app.url}/?api=${encodeURIComponent(`${stack.url}/graphql`)}#/`);
    await listening;
    await expect
      .poll(() => page.getByTestId('top-artist').count(), { timeout: 15_000 })
      .toBeGreaterThan(0);

    const artist = stack.simulator.data.allArtists()[7]!;
    const published = stack.simulator.publishMilestone(artist.slug)!;
    await poll.pollNow();

    const items = page.getByTestId('ticker-item');
    await expect.poll(() => items.count(), { timeout: 15_000 }).toBe(1);
    expect(await items.first().textContent()).toContain(
      `${artist.name} passed ${formatCount(published.threshold)}`,
    );
    expect(loads).toBe(1);
    await screenshot(page, 'live-ticker');
  } finally {
    await page.close();
  }
});
