/**
 * The Node HTTP server around the gateway, with a graceful stop: on SIGTERM
 * it reports not-ready, stops accepting connections, lets in-flight requests
 * finish (up to a grace period), then closes the upstream pool. Requests its
 * parser refuses are answered in the gateway's error shape (unparsed-requests.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { DEFAULT_GRACE_MS } from '../../setting-defaults.js';
import { answerUnparsedRequest } from './unparsed-requests.js';

/** Slow-loris protection: how long a client gets to send its headers, and its whole request. */
export interface RequestTimeouts {
  readonly headersMs: number;
  readonly requestMs: number;
  /** How often Node looks for requests past those times (Node's default: 30 s). */
  readonly checkEveryMs: number;
}

const DEFAULT_TIMEOUTS: RequestTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  checkEveryMs: 30_000,
};

/**
 * What the server runs and stops: the listeners of a gateway and its stop
 * (createGateway returns one). Named here so the HTTP edge needs nothing
 * of the composition root above it.
 */
export interface Served {
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  readonly upgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Stop reporting ready before the server closes. */
  drain(): void;
  closeSockets(): Promise<void>;
  close(): Promise<void>;
}

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  close(graceMs?: number): Promise<void>;
}

export async function listen(
  gateway: Served,
  port: number,
  host: string,
  timeouts: RequestTimeouts = DEFAULT_TIMEOUTS,
): Promise<RunningServer> {
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkEveryMs,
    },
    gateway.handler,
  );
  server.on('clientError', answerUnparsedRequest);
  server.on('upgrade', gateway.upgrade);
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
        // Open streams and sockets end at the grace period's end: their clients reconnect elsewhere.
        const timer = setTimeout(() => {
          server.closeAllConnections();
          void gateway.closeSockets();
        }, graceMs);
        await closed;
        clearInterval(sweeper);
        clearTimeout(timer);
        await gateway.close();
      })();
      return closing;
    },
  };
}
