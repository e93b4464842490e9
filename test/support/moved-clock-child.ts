/**
 * Loaded with `--import` into a spawned gateway (replicas.ts, `movedClock`):
 * the process's calendar starts at the next real UTC midnight, or
 * `MOVED_CLOCK_OFFSET_MS` away from the real one (behind when negative), and
 * the test moves it forward by IPC (`{ clockAt: epochMs }`), answered once
 * it holds, so the test never waits for a delay. Timers keep real time.
 */
import { installMovedClock } from '../../simulate/moved-clock.js';

const offset = process.env.MOVED_CLOCK_OFFSET_MS;
const clock = installMovedClock(offset === undefined ? undefined : Date.now() + Number(offset));

process.on('message', (message: { clockAt?: unknown }) => {
  if (typeof message?.clockAt !== 'number') return;
  clock.advanceTo(message.clockAt);
  process.send?.({ clockAt: clock.now() });
});
// The channel must not keep a gateway alive that was told to stop.
process.channel?.unref();
