/** Error bodies `{statusCode, error, message}` with the upstream's exact message patterns. */
import { STATUS_CODES } from 'node:http';
import type { ErrorBody } from './types.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, message);
export const notFound = (message: string): HttpError => new HttpError(404, message);

export const Messages = {
  keyMissing: 'API key required. Pass it as the Authorization header: Bearer <API_KEY>',
  keyInvalid: 'Invalid or revoked API key',
  dailyLimit: (limit: number) =>
    `Daily limit of ${limit} requests reached. Resets at midnight UTC.`,
  unexpected: 'An unexpected error occurred',
  cannot: (method: string, path: string) => `Cannot ${method} ${path}`,
  artistNotFound: (slug: string) => `Artist "${slug}" not found`,
  songNotFound: (slug: string) => `Song "${slug}" not found`,
  albumNotFound: (slug: string) => `Album "${slug}" not found`,
  chartNotFound: (name: string, territory: string) => `Chart "${name}/${territory}" not found`,
} as const;

export function errorBody(status: number, message?: string): ErrorBody {
  const error = STATUS_CODES[status] ?? 'Error';
  return {
    statusCode: status,
    error,
    message: message ?? (status === 500 ? Messages.unexpected : error),
  };
}
