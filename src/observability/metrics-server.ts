/**
 * `/metrics` on a port of its own (METRICS_PORT), for deployments that keep
 * the scrape endpoint off the public one. It serves the same registry as
 * the gateway port's `/metrics`, and nothing else.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GatewayMetrics } from './metrics.js';

export interface MetricsServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function listenMetrics(
  metrics: GatewayMetrics,
  port: number,
  host: string,
): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    if (
      request.method !== 'GET' ||
      new URL(request.url ?? '/', 'http://metrics').pathname !== '/metrics'
    ) {
      response
        .writeHead(404, { 'content-type': 'text/plain' })
        .end('Not found: the metrics are at /metrics\n');
      return;
    }
    metrics.scrape().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () =>
        response
          .writeHead(500, { 'content-type': 'text/plain' })
          .end('The metrics could not be collected\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
