/**
 * What the browser specs share: Debian's Chromium driven by playwright-core (never a downloaded
 * browser), a static server for the built example app, and screenshots under test-results/.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * How long a test waits for the page to show something: generous, since a loaded 2-core machine
 * runs Chromium slowly, and every wait ends as soon as the page shows it.
 */
export const UI_TIMEOUT_MS = 30_000;

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const APP_DIST = join(ROOT, 'examples/web/dist');
const SCREENSHOT_DIR = join(ROOT, 'test-results/screenshots');

/**
 * Without the background-networking flags Chromium keeps dialling Google's hosts, which this
 * closed network refuses, and hangs; --no-sandbox because CI runs as root.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** A headless Chromium with a fresh, throw-away profile. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: install Debian's with ` +
        '`apt-get install -y --no-install-recommends chromium` (.ci/run does), or set CHROMIUM_PATH.',
    );
  }
  const userDataDir = await mkdtemp(join(tmpdir(), 'chromium-profile-'));
  const context: BrowserContext = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    timeout: 30_000,
  });
  // Only the test's own servers: portraits on the simulator's made-up image host fail at once
  // (the app shows initials) instead of waiting on DNS in a closed network.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
  return {
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

export interface StaticServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves the built example app (examples/web/dist) on an ephemeral port. */
export async function serveApp(): Promise<StaticServer> {
  if (!existsSync(join(APP_DIST, 'index.html'))) {
    throw new Error(
      `The example app is not built (${APP_DIST}/index.html is missing): run ` +
        '`npm ci && npm run build` in examples/web first (.ci/run does it before `npm test`).',
    );
  }
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://app').pathname);
    const relative = normalize(path === '/' ? '/index.html' : path);
    if (relative.includes('..')) {
      response.writeHead(400).end();
      return;
    }
    readFile(join(APP_DIST, relative)).then(
      (body) => {
        response.writeHead(200, {
          'content-type': CONTENT_TYPES[extname(relative)] ?? 'application/octet-stream',
        });
        response.end(body);
      },
      () => response.writeHead(404, { 'content-type': 'text/plain' }).end('not found'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A full-page screenshot at test-results/screenshots/<name>.png; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
