/**
 * The response cache's admission (src/server/response-cache/fast-path.ts, MISSED_KEYS_KEPT): an
 * answer is stored from its key's second miss on, so a request is answered from stored bytes only
 * once the same request has been asked twice.
 */

/** Asks twice, so that the answer is stored: the same request next is a hit. The second answer. */
export async function askTwice<T>(ask: () => Promise<T>): Promise<T> {
  await ask();
  return ask();
}
