/** METRICS_PORT: validated at start, and a second listener serving only the gateway's `/metrics`. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/config-error.js';
import { listenMetrics, type MetricsServer } from '../../src/observability/metrics-server.js';
import { scrape, total } from '../support/prometheus.js';
import { type Stack, startStack } from '../support/stack.js';

describe('METRICS_PORT', () => {
  it('is absent unless set, and validated when set', () => {
    expect(loadConfig({}).metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '' }).metricsPort).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(() => loadConfig({ METRICS_PORT: '9e3' })).toThrow(
      new ConfigError('Invalid configuration:\n  METRICS_PORT: must be a whole number'),
    );
    expect(() => loadConfig({ METRICS_PORT: '0' })).toThrow(/METRICS_PORT: must be at least 1/);
    expect(() => loadConfig({ METRICS_PORT: '4000' })).toThrow(
      /METRICS_PORT: must differ from PORT/,
    );
  });

  describe('the metrics listener', () => {
    let stack: Stack;
    let metrics: MetricsServer;
    beforeAll(async () => {
      stack = await startStack();
      metrics = await listenMetrics(stack.gateway.metrics, 0, '127.0.0.1');
    });
    afterAll(async () => {
      await metrics.close();
      await stack.close();
    });

    it('serves the same figures as the gateway port', async () => {
      await stack.query('{ charts { name } }');
      const own = await scrape(metrics.url);
      const gateways = await scrape(`${stack.url}/metrics`);
      expect(total(own, 'gateway_upstream_requests_total')).toBe(stack.upstreamCalls());
      expect(total(gateways, 'gateway_upstream_requests_total')).toBe(stack.upstreamCalls());
    });

    it('answers 404 for anything else', async () => {
      const response = await fetch(metrics.url.replace('/metrics', '/graphql'));
      expect(response.status).toBe(404);
      await response.text();
    });
  });
});
