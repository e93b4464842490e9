/**
 * A setting, a file or a service the gateway needs at start is wrong: the
 * process prints the message and exits with status 2 (main.ts), before it
 * serves anything. A leaf, so that any layer that checks what it was given
 * (the Redis connection, the budget file) can say so without importing the
 * configuration above it.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
