/**
 * Request bodies held in memory, in total. Each body is bounded
 * (GRAPHQL_MAX_REQUEST_BYTES), but a body is held from its first byte to its
 * request's end: while it arrives, while its request waits for a turn
 * (request-turns.ts), while it runs. Clients sending faster than the gateway
 * answers, or sending bodies slowly on many connections, would each add
 * theirs. Past REQUEST_BODIES_TOTAL_BYTES a new body is refused (OVERLOADED,
 * 503, its connection closed) rather than read.
 *
 * Bytes are counted as they arrive, not as announced: a client that
 * announces 64 KiB and sends nothing holds nothing, and cannot fill the
 * budget with promises. This bounds the bodies the response cache's fast
 * path reads (every JSON POST of a known length); the others (chunked, other
 * media types) are read by Yoga during their request's turn, so at most
 * the turns' count of them at once.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const DEFAULT_REQUEST_BODIES_TOTAL_BYTES = 16 * 1024 * 1024;

export type BodyRead =
  | { readonly kind: 'body'; readonly body: Buffer }
  /** The client went away, or sent more than it announced. */
  | { readonly kind: 'gone' }
  /** Holding it would pass the bound: nothing more is read. */
  | { readonly kind: 'overloaded' };

export class RequestBodies {
  #held = 0;

  constructor(readonly maxBytes = DEFAULT_REQUEST_BODIES_TOTAL_BYTES) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1)
      throw new Error(`maxBytes must be a positive integer: ${maxBytes}`);
  }

  /** Bytes of request bodies held now. */
  get heldBytes(): number {
    return this.#held;
  }

  /** The whole body of `req`, exactly `length` bytes as announced, held until `res` closes. */
  read(req: IncomingMessage, res: ServerResponse, length: number): Promise<BodyRead> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let received = 0;
      let settled = false;
      // Listeners are added with `on` and left in place: each event comes once or is ignored
      // once settled, and the listeners go with the request. `once` wrapped and removed each
      // of them on every request, a hit's share of work it had no need for.
      res.on('close', () => {
        this.#held -= received;
      });
      const settle = (read: BodyRead) => {
        if (settled) return;
        settled = true;
        resolve(read);
      };
      req.on('data', (chunk: Buffer) => {
        if (settled) return;
        if (received + chunk.length > length) {
          req.destroy();
          settle({ kind: 'gone' });
          return;
        }
        if (this.#held + chunk.length > this.maxBytes) {
          // Read no more of it: the refusal closes the connection.
          req.pause();
          settle({ kind: 'overloaded' });
          return;
        }
        this.#held += chunk.length;
        received += chunk.length;
        chunks.push(chunk);
      });
      req.on('end', () =>
        settle(
          received === length
            ? // A copy of its own: a chunk may be a slice of the connection's whole read.
              { kind: 'body', body: Buffer.concat(chunks, received) }
            : { kind: 'gone' },
        ),
      );
      // A request that ends without its whole body closes (aborted, or destroyed by an error):
      // after 'end' this comes too, and finds the read settled.
      req.on('close', () => settle({ kind: 'gone' }));
      req.on('error', () => settle({ kind: 'gone' }));
    });
  }
}
