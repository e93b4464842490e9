/**
 * The example frontend (examples/web, built) in headless Chromium against a real gateway and
 * simulator: each page is filled by one GraphQL request, with the simulator's numbers.
 */
import type { Page, Request, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCount, formatExact } from '../../examples/web/src/format.js';
import {
  type Browser,
  launchBrowser,
  type StaticServer,
  screenshot,
  serveApp,
  UI_TIMEOUT_MS,
} from '../support/browser.js';
import { type Stack, startStack } from '../support/stack.js';

/** The leaderboard page's size and the rows a long list starts with (constants of the app). */
const LEADERBOARD_SIZE = 10;
const LIST_PREVIEW = 8;

let stack: Stack;
let app: StaticServer;
let browser: Browser;

beforeAll(async () => {
  app = await serveApp();
  stack = await startStack();
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await app?.close();
});

/**
 * Opens the app at `hash`, pointed at the test's gateway, and records its GraphQL requests and
 * answers (read once the page shows their result; the tests never wait on the network).
 */
async function open(
  hash: string,
): Promise<{ page: Page; graphqlRequests: Request[]; graphqlAnswers: Response[] }> {
  const page = await browser.newPage();
  const graphqlRequests: Request[] = [];
  const graphqlAnswers: Response[] = [];
  page.on('request', (request) => {
    if (isGraphQL(request)) graphqlRequests.push(request);
  });
  page.on('response', (response) => {
    if (isGraphQL(response.request())) graphqlAnswers.push(response);
  });
  await page.goto(`${app.url}/?api=${encodeURIComponent(`${stack.url}/graphql`)}${hash}`);
  return { page, graphqlRequests, graphqlAnswers };
}

/** Page requests: the milestone ticker's subscription stream (test/browser/live-ticker.spec.ts) is not one. */
function isGraphQL(request: Request): boolean {
  return (
    request.url().startsWith(`${stack.url}/graphql`) &&
    request.method() !== 'OPTIONS' &&
    request.headers().accept !== 'text/event-stream'
  );
}

describe('example app', () => {
  it('renders the top artists in the simulator order, and trending songs, from one request', async () => {
    const expected = stack.simulator.data.leaderboardStreams({ limit: LEADERBOARD_SIZE });
    const { page, graphqlRequests } = await open('#/');
    try {
      const rows = page.getByTestId('top-artist');
      await expect.poll(() => rows.count(), { timeout: UI_TIMEOUT_MS }).toBe(expected.length);

      expect(
        await page.getByTestId('top-artist').getByTestId('artist-link').allTextContents(),
      ).toEqual(expected.map((artist) => artist.name));
      expect(await page.getByTestId('artist-streams').allInnerTexts()).toEqual(
        expected.map((artist) => `${formatCount(artist.totalStreams)}\nstreams`),
      );
      const trending = stack.simulator.data.trendingSongs({ limit: LEADERBOARD_SIZE });
      expect(await page.getByTestId('trending-song').count()).toBe(trending.length);
      expect(trending.length).toBeGreaterThan(0);
      await expect
        .poll(() => page.getByTestId('trending-song').first().textContent(), {
          timeout: UI_TIMEOUT_MS,
        })
        .toContain(trending[0]?.title);

      expect(graphqlRequests.map((request) => operationName(request))).toEqual(['Leaderboards']);
      await screenshot(page, 'leaderboard');
    } finally {
      await page.close();
    }
  });

  it('opens an artist page with the right numbers when an artist is clicked', async () => {
    const second = stack.simulator.data.leaderboardStreams({ limit: 2 })[1];
    if (second === undefined) throw new Error('the simulator has fewer than two artists');
    const profile = stack.simulator.data.artistBySlug(second.slug);
    if (profile === null) throw new Error(`the simulator has no profile for ${second.slug}`);
    const { page, graphqlRequests } = await open('#/');
    try {
      await page.getByTestId('artist-link').filter({ hasText: second.name }).click();
      await page.getByTestId('artist-page').waitFor({ timeout: UI_TIMEOUT_MS });

      expect(new URL(page.url()).hash).toBe(`#/artist/${second.slug}`);
      expect(await page.getByTestId('artist-name').textContent()).toBe(profile.name);
      const figures = {
        'total-streams': profile.totalStreams,
        'daily-streams': profile.dailyStreams,
        'monthly-listeners': profile.monthlyListeners,
        followers: profile.followers,
      };
      for (const [testId, value] of Object.entries(figures)) {
        const figure = page.getByTestId(testId);
        expect({ testId, text: await figure.textContent() }).toEqual({
          testId,
          text: formatCount(value),
        });
        expect(await figure.getAttribute('title')).toBe(formatExact(value));
      }
      expect(await page.getByTestId('top-song').count()).toBe(profile.topSongs.length);
      expect(await page.getByTestId('top-song').first().textContent()).toContain(
        profile.topSongs[0]?.title,
      );
      if (profile.awards.length > 0)
        expect(await page.locator('[data-testid=awards] li').count()).toBe(profile.awards.length);
      const chartRows = page.locator('[data-testid=chart-positions] tbody tr');
      expect(await chartRows.count()).toBe(Math.min(LIST_PREVIEW, profile.charts.length));
      expect(await page.getByTestId('chart-summary').textContent()).toMatch(
        new RegExp(`^${profile.charts.length} entr`),
      );
      // The 90-day history is drawn: one area path with 90 points' worth of data.
      await page.locator('[data-testid=stream-history] .recharts-area-curve').waitFor();

      expect(graphqlRequests.map((request) => operationName(request))).toEqual([
        'Leaderboards',
        'ArtistPage',
      ]);
      await screenshot(page, 'artist');

      // Long lists open in place, from the data already loaded: no further request.
      if (profile.charts.length > LIST_PREVIEW) {
        await page
          .getByRole('button', { name: `Show all ${profile.charts.length} chart entries` })
          .click();
        expect(await chartRows.count()).toBe(profile.charts.length);
      }
      expect(graphqlRequests).toHaveLength(2);
    } finally {
      await page.close();
    }
  });

  it('shows the not-found view for an unknown slug, from the NOT_FOUND error code', async () => {
    const { page, graphqlAnswers } = await open('#/artist/no-such-artist');
    try {
      const view = page.getByTestId('not-found');
      await view.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await view.textContent()).toContain('no-such-artist');

      // The view came from this answer's error code.
      expect(graphqlAnswers).toHaveLength(1);
      const body = (await graphqlAnswers[0]?.json()) as {
        errors?: { extensions?: { code?: string } }[];
      };
      expect(body.errors?.map((error) => error.extensions?.code)).toContain('NOT_FOUND');
      expect(await page.getByTestId('artist-page').count()).toBe(0);
      await screenshot(page, 'not-found');
    } finally {
      await page.close();
    }
  });
});

/** The operation a request carries, from its JSON body (POST) or its query string (GET). */
function operationName(request: Request): string | undefined {
  const body = request.postData();
  if (body !== null) return (JSON.parse(body) as { operationName?: string }).operationName;
  return new URL(request.url()).searchParams.get('operationName') ?? undefined;
}
