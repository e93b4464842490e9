/**
 * The upstream layer's decisions as events of the span in which they are
 * taken (the `upstream <resource>` read span, see tracing-loader.ts): why a
 * read did or did not reach the upstream. The HTTP request itself is a span
 * of the undici instrumentation. Observed only where traces are exported
 * (read-path.ts).
 */
import { trace } from '@opentelemetry/api';
import type { UpstreamObserver } from '../upstream/observer.js';

const event = (name: string, attributes: Record<string, string>) =>
  trace.getActiveSpan()?.addEvent(name, attributes);

export const traceObserver: UpstreamObserver = {
  cacheLookup: (level, hit) => event(hit ? 'cache hit' : 'cache miss', { 'cache.level': level }),
  singleFlightJoined: (resource) => event('single-flight join', { 'upstream.resource': resource }),
  staleServed: (resource) => event('stale answer served', { 'upstream.resource': resource }),
  requestSent: () => () => {},
};
