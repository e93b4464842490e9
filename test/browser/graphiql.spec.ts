/**
 * GraphiQL at /graphql in headless Chromium: the bundled page loads offline, opens with the
 * example tabs, runs an example and shows its result with the cost report.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import {
  CLIENT_KEY,
  OTHER_CLIENT_KEY,
  SERVER_KEY,
  type Stack,
  startStack,
} from '../support/stack.js';
import { type Browser, launchBrowser, screenshot, UI_TIMEOUT_MS } from './harness.js';

let simulator: Simulator;
let stack: Stack;
let browser: Browser;
let slug: string;

beforeAll(async () => {
  simulator = await startSimulator({
    apiKeys: [SERVER_KEY, CLIENT_KEY, OTHER_CLIENT_KEY],
    dailyLimit: 1_000_000,
  });
  const top = simulator.data.leaderboardStreams({ limit: 1 })[0];
  if (top === undefined) throw new Error('the simulator has no artists');
  slug = top.slug;
  // As `npm start` does: the ArtistPage tab opens with a slug that exists.
  stack = await startStack({
    sharedSimulator: simulator,
    gateway: { exampleVariables: { ArtistPage: { slug } } },
  });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await simulator?.close();
});

async function openGraphiQL(url = stack.url): Promise<Page> {
  const page = await browser.newPage();
  // GraphiQL keeps its tabs in localStorage; each test starts from the gateway's defaults.
  await page.addInitScript(() => window.localStorage.clear());
  await page.goto(`${url}/graphql`);
  await page.getByTestId('graphiql-container').waitFor({ timeout: 60_000 });
  return page;
}

/** The whole text of an editor pane (CodeMirror renders only the lines in view). */
function editorText(
  page: Page,
  pane: '.result-window' | '.graphiql-query-editor',
): Promise<string> {
  return page.evaluate((selector) => {
    const editor = document.querySelector(`${selector} .CodeMirror`) as
      | (Element & { CodeMirror?: { getValue(): string } })
      | null;
    return editor?.CodeMirror?.getValue() ?? '';
  }, pane);
}

it('runs the Leaderboards example and shows its result with extensions.cost', async () => {
  const page = await openGraphiQL();
  try {
    await page
      .locator('.graphiql-tab', { hasText: 'Leaderboards' })
      .locator('.graphiql-tab-button')
      .click();
    await expect
      .poll(() => editorText(page, '.graphiql-query-editor'), { timeout: UI_TIMEOUT_MS })
      .toContain('query Leaderboards');

    const run = page.locator('.graphiql-execute-button');
    await run.click();
    // What the user waits for: the answer in the result pane, however long the request takes.
    // GraphiQL takes the operation name from the editor after a debounce: a click right after the
    // tab switch may still carry the previous tab's name, which GraphiQL refuses in the pane without
    // sending anything ("Cannot infer operation ArtistPage"). A user clicks again; so does the test.
    const top = simulator.data.leaderboardStreams({ limit: 1 })[0];
    await expect
      .poll(
        async () => {
          const shown = await editorText(page, '.result-window');
          if (shown.includes('Cannot infer operation')) await run.click();
          return shown;
        },
        { timeout: UI_TIMEOUT_MS },
      )
      .toContain(`"name": "${top?.name}"`);
    const shown = JSON.parse(await editorText(page, '.result-window')) as {
      data?: { topArtistsByStreams?: { artist: { name: string } }[] };
      extensions?: { cost?: { upstreamCalls?: number } };
    };
    expect(shown.data?.topArtistsByStreams?.[0]?.artist.name).toBe(top?.name);
    expect(shown.extensions?.cost?.upstreamCalls).toBeGreaterThan(0);
    // What is on screen, not only in the editor's model.
    expect(await page.locator('.result-window').textContent()).toContain('topArtistsByStreams');
    await screenshot(page, 'graphiql');
  } finally {
    await page.close();
  }
});

it('opens with one tab per capability, the nested artist page first', async () => {
  const page = await openGraphiQL();
  try {
    // The active tab takes its title from the operation once the editor has parsed it.
    const tabTitles = async () =>
      (await page.locator('.graphiql-tab').allInnerTexts()).map((tab) => tab.trim());
    await expect
      .poll(tabTitles, {
        timeout: UI_TIMEOUT_MS,
        message:
          'the first tab must be ArtistPage: the gateway has to pass `defaultQuery` (see exampleGraphiQL in src/server/examples.ts)',
      })
      .toEqual([
        'ArtistPage',
        'Leaderboards',
        'BrowseArtists',
        'ChartWithTrends',
        'RecentMilestones',
        'MilestoneCrossed',
        'ApiUsage',
      ]);
    expect(await editorText(page, '.graphiql-query-editor')).toContain(
      'query ArtistPage($slug: String!)',
    );
  } finally {
    await page.close();
  }
});

it('runs the MilestoneCrossed subscription tab: a milestone published upstream shows in the result', async () => {
  // A gateway with a refresh poll (an hour apart: the test polls itself once GraphiQL listens).
  const live = await startStack({
    sharedSimulator: simulator,
    gateway: { refreshPollMs: 3_600_000 },
  });
  const page = await openGraphiQL(live.url);
  // What GraphiQL sent, for the failure message should no subscription answer come.
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(`${live.url}/graphql`))
      sent.push(
        `${request.method()} ${request.url().slice(0, 120)} ${request.postData()?.slice(0, 160) ?? ''}`,
      );
  });
  try {
    await live.gateway.refreshPoll!.pollNow();
    await page
      .locator('.graphiql-tab', { hasText: 'MilestoneCrossed' })
      .locator('.graphiql-tab-button')
      .click();
    await expect
      .poll(() => editorText(page, '.graphiql-query-editor'), { timeout: UI_TIMEOUT_MS })
      .toContain('subscription MilestoneCrossed');
    // A click in the editor makes GraphiQL take this tab's operation name (see the Leaderboards test).
    await page.locator('.graphiql-query-editor .CodeMirror').click();
    const listening = page.waitForResponse(
      // GraphiQL subscribes over SSE: a POST or a GET carrying the document, whichever its fetcher picks.
      (response) =>
        response.url().startsWith(`${live.url}/graphql`) &&
        `${decodeURIComponent(response.url())} ${response.request().postData() ?? ''}`.includes(
          'milestoneCrossed',
        ),
    );
    const run = page.locator('.graphiql-execute-button');
    await run.click();
    // As in the Leaderboards test: a click right after the tab switch may still carry the previous
    // tab's operation name, which GraphiQL refuses in the pane without sending anything. A user
    // clicks again; so does the test. (Each run clears the pane first, so a subscription under
    // way never shows the refusal, and is never clicked off.)
    let subscribed = false;
    void listening.then(
      () => {
        subscribed = true;
      },
      () => undefined,
    );
    await expect
      .poll(
        async () => {
          if (subscribed) return true;
          if ((await editorText(page, '.result-window')).includes('Cannot infer operation'))
            await run.click();
          return subscribed;
        },
        { timeout: UI_TIMEOUT_MS },
      )
      .toBe(true)
      .catch(() => undefined);
    const answered = await listening.catch(async (error: Error) => {
      throw new Error(
        `${error.message}\nGraphiQL sent:\n${sent.join('\n')}\nits result pane: ${await editorText(page, '.result-window')}`,
      );
    });
    expect(answered.status()).toBe(200);

    const artist = simulator.data.allArtists()[11]!;
    simulator.publishMilestone(artist.slug);
    await live.gateway.refreshPoll!.pollNow();
    await expect
      .poll(() => editorText(page, '.result-window'), { timeout: 15_000 })
      .toContain(`"name": "${artist.name}"`);
    await screenshot(page, 'graphiql-subscription');
  } finally {
    await page.close();
    await live.close();
  }
});

it('reads a page compressed, then the same page from the response cache in gzip', async () => {
  const page = await openGraphiQL();
  try {
    const query =
      '{ topArtistsByStreams(limit: 20) { rank artist { slug name history { date dailyStreams } } } }';
    // From GraphiQL's own origin, as its fetcher asks: every response header is readable there.
    const [miss, hit] = await page.evaluate(async (document) => {
      const ask = async () => {
        const response = await fetch('/graphql', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/graphql-response+json',
          },
          body: JSON.stringify({ query: document }),
        });
        return {
          encoding: response.headers.get('content-encoding'),
          body: (await response.json()) as {
            data?: unknown;
            extensions?: { cost?: { responseCache?: string } };
          },
        };
      };
      return [await ask(), await ask()];
    }, query);
    expect(['br', 'gzip']).toContain(miss?.encoding);
    expect(hit?.encoding).toBe('gzip');
    expect(hit?.body.extensions?.cost?.responseCache).toBe('hit');
    expect(hit?.body.data).toEqual(miss?.body.data);
    const ranked = miss?.body.data as { topArtistsByStreams: unknown[] } | undefined;
    expect(ranked?.topArtistsByStreams).toHaveLength(20);
  } finally {
    await page.close();
  }
});
