/**
 * Connections opened ahead over TLS, as the real upstream is reached: the
 * warm connections complete their handshakes with the upstream's name
 * checked, and undici's client sends calls on them (no connection opened
 * twice). The certificate is a test fixture for 127.0.0.1, trusted by the
 * client's process through NODE_EXTRA_CA_CERTS.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from './support/until.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

let server: Server;
let handshakes = 0;
let requests = 0;
beforeAll(async () => {
  server = createServer(
    {
      key: readFileSync(fixture('tls-upstream.key')),
      cert: readFileSync(fixture('tls-upstream.crt')),
    },
    (request, response) => {
      requests += 1;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ path: request.url, auth: request.headers.authorization }));
    },
  );
  server.on('secureConnection', () => {
    handshakes += 1;
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

it('opens the later calls’ TLS connections ahead, and the calls use them', async () => {
  const { port } = server.address() as AddressInfo;
  const child: ChildProcess = fork(
    fileURLToPath(new URL('./support/warm-tls-client.ts', import.meta.url)),
    {
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env,
        NODE_EXTRA_CA_CERTS: fixture('tls-upstream.crt'),
        WARM_TLS_BASE_URL: `https://127.0.0.1:${port}`,
        WARM_TLS_CALLS: '5',
      },
    },
  );
  try {
    await once(child, 'message');
    // Five calls expected, none made yet: four connections for the calls after the first.
    await until(() => handshakes === 4, 0);
    expect(requests).toBe(0);
    child.send('go');
    const [outcomes] = (await once(child, 'message')) as [string[]];
    expect(outcomes).toEqual(
      Array.from({ length: 5 }, (_, index) =>
        JSON.stringify({ path: `/api/v1/artists/a-${index}`, auth: 'Bearer key' }),
      ),
    );
    // The first call opened its own; the other four went out on the warm ones.
    expect(handshakes).toBe(5);
    expect(requests).toBe(5);
  } finally {
    child.kill();
  }
});
