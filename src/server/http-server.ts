/**
 * The Node HTTP server around the gateway, with a graceful stop: on SIGTERM
 * it reports not-ready, stops accepting connections, lets in-flight requests
 * finish (up to a grace period), then closes the upstream pool.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Gateway } from './gateway.js';

const DEFAULT_GRACE_MS = 10_000;

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  close(graceMs?: number): Promise<void>;
}

export async function listen(gateway: Gateway, port: number, host: string): Promise<RunningServer> {
  const server = createServer(gateway.handler);
  // Slow-loris protection: a client gets this long to send its whole request.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost =
    host === '0.0.0.0' || host === '::' || host === '127.0.0.1' ? 'localhost' : host;
  const url = `http://${shownHost}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    server,
    url,
    close(graceMs = DEFAULT_GRACE_MS) {
      closing ??= (async () => {
        gateway.drain();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Keep-alive connections turn idle as their last request finishes: close them as they do.
        const sweeper = setInterval(() => server.closeIdleConnections(), 50);
        server.closeIdleConnections();
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        await closed;
        clearInterval(sweeper);
        clearTimeout(timer);
        await gateway.close();
      })();
      return closing;
    },
  };
}
