/**
 * A process's warm-up (src/warm-up.ts) answers every example operation through a throwaway
 * gateway and simulator, and takes no TCP port for either: a port found free by whatever
 * started the gateway (a supervisor, a test, a benchmark) must not be answered for a moment by
 * the warm-up's simulator instead.
 */
import { Server } from 'node:net';
import { afterEach, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { warmUp } from '../../src/warm-up.js';

afterEach(() => {
  vi.restoreAllMocks();
});

it.each(['pass-through', 'server'] as const)(
  'answers every example over Unix sockets, with no TCP port taken (%s mode)',
  async (mode) => {
    const listens: unknown[] = [];
    const listen = Server.prototype.listen;
    vi.spyOn(Server.prototype, 'listen').mockImplementation(function (
      this: Server,
      ...args: unknown[]
    ) {
      listens.push(args[0]);
      return listen.apply(this, args as Parameters<typeof listen>);
    });

    expect(await warmUp(loadConfig({}), mode)).toBe(true);

    expect(listens.length).toBeGreaterThanOrEqual(2);
    for (const at of listens)
      expect(at).toEqual(expect.objectContaining({ path: expect.any(String) }));
  },
);
