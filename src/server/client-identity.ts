/**
 * Who a client is in server-key mode, for the per-client rate limit and the
 * per-client share of the day's budget: its IP address (the TCP peer).
 * Behind a reverse proxy every request comes from the proxy, so with
 * `trustProxy` the client is the last address of X-Forwarded-For, the one
 * the proxy itself appended; earlier entries are the client's own claim and
 * never used. A client-chosen id header is not used either: a client could
 * rotate it at will.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function clientAddressOf(
  request: Request,
  context: { req?: IncomingMessage },
  trustProxy: boolean,
): string {
  return clientAddress(
    request.headers.get('x-forwarded-for'),
    context.req?.socket?.remoteAddress,
    trustProxy,
  );
}

/** The same from the raw header and the TCP peer (the node:http listener has no Request object). */
export function clientAddress(
  forwardedFor: string | null | undefined,
  remoteAddress: string | undefined,
  trustProxy: boolean,
): string {
  const forwarded = trustProxy ? forwardedFor?.split(',').at(-1)?.trim() : undefined;
  return forwarded || remoteAddress || 'unknown';
}

/** The address hashed: budgets and Redis keys never hold a client's IP in clear. */
export function clientIdOf(address: string): string {
  return createHash('sha256').update(address).digest('hex').slice(0, 24);
}
