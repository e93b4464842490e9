import pino, { type Logger } from 'pino';
import { traceFields } from './observability/log-trace.js';

/** JSON lines on stdout; the Authorization header is never logged, whatever a plugin passes. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'music-stats-gateway' },
    mixin: traceFields,
    redact: ['req.headers.authorization', 'headers.authorization', 'apiKey'],
  });
}
