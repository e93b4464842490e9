/**
 * Who a client is in server-key mode, for the per-client rate limit and the
 * per-client share of the day's budget: its IP address (the TCP peer), or
 * for IPv6 the /64 network it is in.
 * Behind a reverse proxy every request comes from the proxy, so with
 * `trustProxy` the client is the last address of X-Forwarded-For, the one
 * the proxy itself appended; earlier entries are the client's own claim and
 * never used. A client-chosen id header is not used either: a client could
 * rotate it at will.
 */
import type { IncomingMessage } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';
import { sha256 } from '../digest.js';
import type { RequestHeaders } from './caller.js';

/** Who sent `request`, as every per-client bound counts it: its address, hashed (clientIdOf). */
export function clientOf(
  request: RequestHeaders,
  context: { req?: IncomingMessage },
  trustProxy: boolean,
): string {
  return clientIdOf(
    clientAddress(
      request.headers.get('x-forwarded-for'),
      context.req?.socket?.remoteAddress,
      trustProxy,
    ),
  );
}

/** The client's address from the raw header and the TCP peer (the node:http listener has no Request object). */
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
  return sha256(clientNetwork(address)).slice(0, 24);
}

/**
 * The part of an address one client holds. An IPv6 host is handed a whole /64 and may take any
 * address in it at will, so one client is its /64, as rate limiters commonly count; an IPv4
 * address (plain or IPv4-mapped) is itself.
 */
export function clientNetwork(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  if (!isIPv6(address)) return address;
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
