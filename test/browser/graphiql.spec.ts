/**
 * GraphiQL at /graphql in headless Chromium: the bundled page loads offline, opens with the
 * example tabs, runs each as it opens (the first with Run as the only click) and shows its result
 * with the cost report, and keeps its tabs over a reload.
 */
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { type Browser, launchBrowser, screenshot, UI_TIMEOUT_MS } from '../support/browser.js';
import {
  CLIENT_KEY,
  OTHER_CLIENT_KEY,
  SERVER_KEY,
  type Stack,
  startStack,
} from '../support/stack.js';

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

/** The example tabs, in the order GraphiQL shows them. */
const TAB_NAMES = [
  'ArtistPage',
  'Leaderboards',
  'BrowseArtists',
  'ChartWithTrends',
  'RecentMilestones',
  'MilestoneCrossed',
  'ApiUsage',
];

interface Answer {
  data?: Record<string, unknown> | null;
  errors?: { message: string }[];
  extensions?: { cost?: { upstreamCalls?: number } };
}

/** The tabs' titles; the active tab takes its title from the operation once the editor has parsed it. */
async function tabTitles(page: Page): Promise<string[]> {
  return (await page.locator('.graphiql-tab').allInnerTexts()).map((tab) => tab.trim());
}

/** Opens the example tab `name` as a user does, with a click on its title. */
async function openTab(page: Page, name: string): Promise<void> {
  await page.locator('.graphiql-tab', { hasText: name }).locator('.graphiql-tab-button').click();
  await expect
    .poll(() => editorText(page, '.graphiql-query-editor'), { timeout: UI_TIMEOUT_MS })
    .toMatch(new RegExp(`(query|subscription) ${name}\\b`));
}

/** Whether `request` is GraphiQL executing operation `name` (a POST, or a GET for SSE). */
function executes(url: string, request: Request, name: string): boolean {
  if (!request.url().startsWith(`${url}/graphql`)) return false;
  const sent = `${decodeURIComponent(request.url())} ${request.postData() ?? ''}`;
  return sent.includes(`"operationName":"${name}"`) || sent.includes(`operationName=${name}`);
}

/**
 * What presses Run on the tab on view, the operation `name`, until GraphiQL has sent it. Run is
 * pressed again only where GraphiQL refused without sending anything: it takes the operation name
 * from the editor after a debounce, so a click right after a tab switch may still carry the
 * previous tab's name ("Cannot infer operation …"). A user clicks again; so does the test. The
 * editors are never touched: the tab runs with what it opened with.
 */
function runner(page: Page, url: string): (name: string) => Promise<void> {
  const executed = new Set<string>();
  // Every request to the endpoint, for a failure's message.
  const sent: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(`${url}/graphql`)) return;
    sent.push(
      `${request.method()} ${request.url().slice(0, 120)} ${request.postData()?.slice(0, 160) ?? ''}`,
    );
    for (const name of TAB_NAMES) if (executes(url, request, name)) executed.add(name);
  });
  return async (name) => {
    executed.delete(name);
    const button = page.locator('.graphiql-execute-button');
    await button.click();
    await expect
      .poll(
        async () => {
          if (executed.has(name)) return true;
          if ((await editorText(page, '.result-window')).includes('Cannot infer operation'))
            await button.click();
          return executed.has(name);
        },
        { timeout: UI_TIMEOUT_MS },
      )
      .toBe(true)
      .catch(async (error: Error) => {
        throw new Error(
          `${name} was never sent: ${error.message}\nGraphiQL sent:\n${sent.join('\n')}\nits result pane: ${await editorText(page, '.result-window')}`,
        );
      });
  };
}

/**
 * The answer the result pane shows once it holds one (an empty pane while the request runs) and
 * `complete` says it is all there: an operation with @defer or @stream shows its first payload
 * before the rest arrive, the cost report coming with the last.
 */
/**
 * Whether an answer is whole: an operation that defers parts shows its first payload before the
 * rest arrive, and the cost report comes with the last (or errors end it).
 */
const reported = (answer: Answer) =>
  answer.errors !== undefined || answer.extensions?.cost !== undefined;

async function shownAnswer(
  page: Page,
  complete: (answer: Answer) => boolean = () => true,
): Promise<Answer> {
  let shown = '';
  await expect
    .poll(
      async () => {
        shown = await editorText(page, '.result-window');
        try {
          const answer = JSON.parse(shown) as unknown;
          return typeof answer === 'object' && answer !== null && complete(answer as Answer);
        } catch {
          return false;
        }
      },
      { timeout: UI_TIMEOUT_MS },
    )
    .toBe(true);
  return JSON.parse(shown) as Answer;
}

it('runs the Leaderboards example and shows its result with extensions.cost', async () => {
  const page = await openGraphiQL();
  const runTab = runner(page, stack.url);
  try {
    await openTab(page, 'Leaderboards');
    await runTab('Leaderboards');
    // What the user waits for: the answer in the result pane, however long the request takes.
    const top = simulator.data.leaderboardStreams({ limit: 1 })[0];
    const shown = (await shownAnswer(page)) as Answer & {
      data?: { topArtistsByStreams?: { artist: { name: string } }[] };
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
    await expect
      .poll(() => tabTitles(page), {
        timeout: UI_TIMEOUT_MS,
        message:
          'the first tab must be ArtistPage: the gateway has to pass `defaultQuery` (see exampleGraphiQL in src/server/graphiql/examples.ts)',
      })
      .toEqual(TAB_NAMES);
    expect(await editorText(page, '.graphiql-query-editor')).toContain(
      'query ArtistPage($slug: String!)',
    );
  } finally {
    await page.close();
  }
});

it('runs every example tab as it opens, the first with no click before Run, the subscription last', async () => {
  // As `npm start` runs: the ArtistPage tab's slug, and a refresh poll (an hour apart: the test
  // polls itself) to carry a milestone to the subscription.
  const live = await startStack({
    sharedSimulator: simulator,
    gateway: { exampleVariables: { ArtistPage: { slug } }, refreshPollMs: 3_600_000 },
  });
  const page = await openGraphiQL(live.url);
  const runTab = runner(page, live.url);
  try {
    // The tab a newcomer sees: Run is the first and only click.
    await expect
      .poll(() => editorText(page, '.graphiql-query-editor'), { timeout: UI_TIMEOUT_MS })
      .toContain('query ArtistPage($slug: String!)');
    await runTab('ArtistPage');
    const artistPage = await shownAnswer(page, reported);
    expect(artistPage.errors, 'ArtistPage').toBeUndefined();
    const artist = (artistPage.data as { artist?: { slug: string; name: string } }).artist;
    expect(artist?.slug).toBe(slug);
    expect(artistPage.extensions?.cost?.upstreamCalls).toBeGreaterThan(0);
    expect(await page.locator('.result-window').textContent()).toContain(artist?.name);
    await screenshot(page, 'graphiql-first-tab');

    // A subscription runs until it is stopped: it goes last, the others as they come.
    const queries = TAB_NAMES.filter(
      (name) => name !== 'ArtistPage' && name !== 'MilestoneCrossed',
    );
    for (const name of queries) {
      await openTab(page, name);
      await runTab(name);
      const answer = await shownAnswer(page, reported);
      expect(answer.errors, name).toBeUndefined();
      expect(Object.keys(answer.data ?? {}), name).not.toHaveLength(0);
      expect(answer.extensions?.cost, name).toBeDefined();
    }

    await live.gateway.refreshPoll!.pollNow();
    await openTab(page, 'MilestoneCrossed');
    const listening = page.waitForResponse((response) =>
      executes(live.url, response.request(), 'MilestoneCrossed'),
    );
    await runTab('MilestoneCrossed');
    expect((await listening).status()).toBe(200);
    const crossing = simulator.data.allArtists()[11]!;
    simulator.publishMilestone(crossing.slug);
    await live.gateway.refreshPoll!.pollNow();
    await expect
      .poll(() => editorText(page, '.result-window'), { timeout: 15_000 })
      .toContain(`"name": "${crossing.name}"`);
    const milestone = (await shownAnswer(page)) as Answer & {
      data?: { milestoneCrossed?: { artist: { slug: string } } };
    };
    expect(milestone.errors, 'MilestoneCrossed').toBeUndefined();
    expect(milestone.data?.milestoneCrossed?.artist.slug).toBe(crossing.slug);
    await screenshot(page, 'graphiql-subscription');
  } finally {
    await page.close();
    await live.close();
  }
});

it('keeps its tabs over a reload: the tab on view reopens with its own variables and runs', async () => {
  const kept = await startStack({
    sharedSimulator: simulator,
    gateway: { exampleVariables: { ArtistPage: { slug } } },
  });
  const page = await browser.newPage();
  // An empty profile at the first load only (a port of an earlier test's gateway may come again):
  // what GraphiQL keeps then is what the reloads find.
  await page.addInitScript(() => {
    if (window.sessionStorage.getItem('profile') !== null) return;
    window.localStorage.clear();
    window.sessionStorage.setItem('profile', 'empty at the first load');
  });
  const runTab = runner(page, kept.url);
  const runsAsItOpens = async (name: string) => {
    await expect
      .poll(() => editorText(page, '.graphiql-query-editor'), { timeout: UI_TIMEOUT_MS })
      .toMatch(new RegExp(`query ${name}\\b`));
    await expect.poll(() => tabTitles(page), { timeout: UI_TIMEOUT_MS }).toEqual(TAB_NAMES);
    expect(await page.locator('.graphiql-tab-active').innerText()).toContain(name);
    await runTab(name);
    const answer = await shownAnswer(page, reported);
    expect(answer.errors, name).toBeUndefined();
    expect(answer.extensions?.cost, name).toBeDefined();
  };
  // GraphiQL keeps its tabs a moment after a change: a reload waits until the one on view is kept.
  const keptActiveTab = () =>
    page.evaluate(
      () =>
        (
          JSON.parse(localStorage.getItem('graphiql:tabState') ?? '{}') as {
            activeTabIndex?: number;
          }
        ).activeTabIndex,
    );
  try {
    await page.goto(`${kept.url}/graphql`);
    await expect.poll(keptActiveTab, { timeout: UI_TIMEOUT_MS }).toBe(0);
    // Reloaded as it opened. Yoga keeps the query on view in the URL, and opens that one again.
    expect(new URL(page.url()).searchParams.get('query')).toContain('query ArtistPage');
    await page.reload();
    await runsAsItOpens('ArtistPage');

    await openTab(page, 'Leaderboards');
    await expect.poll(keptActiveTab, { timeout: UI_TIMEOUT_MS }).toBe(1);
    expect(new URL(page.url()).searchParams.get('query')).toContain('query Leaderboards');
    await page.reload();
    await runsAsItOpens('Leaderboards');

    await openTab(page, 'ArtistPage');
    await expect.poll(keptActiveTab, { timeout: UI_TIMEOUT_MS }).toBe(0);
    await page.reload();
    await runsAsItOpens('ArtistPage');
  } finally {
    await page.close();
    await kept.close();
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
      // Asked twice, so that the response cache stores the answer (from its key's second miss).
      const miss = await ask();
      await ask();
      return [miss, await ask()];
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
