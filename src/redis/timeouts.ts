/** How long the gateway waits on Redis, for one Redis and a cluster's nodes alike. */

/** Longest wait for one command; past it the caller treats Redis as down. */
export const COMMAND_TIMEOUT_MS = 1_000;
export const CONNECT_TIMEOUT_MS = 2_000;
/** Reconnect back-off ceiling: a returning Redis is found within about a second. */
export const MAX_RECONNECT_DELAY_MS = 1_000;

/** 100 ms more per attempt, up to the ceiling. */
export const reconnectDelay = (attempt: number): number =>
  Math.min(100 * attempt, MAX_RECONNECT_DELAY_MS);
