/**
 * A Lua script run by its SHA-1 (ioredis' `defineCommand`: EVALSHA, and the
 * whole script again only when Redis answers NOSCRIPT, after a restart or a
 * flush). EVAL sends the script's text with every call: the budget's reserve
 * is 1.6 KB, sent with each of a cold page's twenty calls, and Redis hashes
 * it each time to find it.
 */
import type { ChainableCommander } from 'ioredis';
import type { RedisClient } from './connection.js';

export type ScriptCall = (...args: (string | number)[]) => Promise<unknown>;

/**
 * `run(...keys, ...args)`: the first `numberOfKeys` arguments are keys (prefixed as any key).
 * With `numberOfKeys` undefined, the call names its own count first: `run(count, ...keys, ...args)`.
 */
export function redisScript(
  redis: RedisClient,
  name: string,
  numberOfKeys: number | undefined,
  lua: string,
): ScriptCall {
  const commands = redis as unknown as Record<string, ScriptCall | undefined>;
  // One definition per connection, however many stores of the same kind share it.
  if (commands[name] === undefined)
    redis.defineCommand(name, numberOfKeys === undefined ? { lua } : { numberOfKeys, lua });
  const command = commands[name]!;
  return (...args) => command.apply(redis, args);
}

/**
 * Queues the script `name` (defined by redisScript on the pipeline's connection) on `pipeline`,
 * for commands that must leave together: a write and the WAIT that follows it, a node's slots.
 */
export function queueScript(
  pipeline: ChainableCommander,
  name: string,
  args: readonly (string | number)[],
): void {
  const commands = pipeline as unknown as Record<string, ScriptCall | undefined>;
  const command = commands[name];
  if (command === undefined) throw new Error(`redis script ${name} is not defined`);
  void command.apply(pipeline, [...args]);
}
