/**
 * Polls `check` until it holds; the test's own timeout bounds the wait. Tests wait for
 * conditions, never for a fixed delay. `intervalMs` 0 polls on every turn of the event loop
 * (for a condition this process makes true); otherwise every `intervalMs` (another process's).
 */
export async function until(
  check: () => Promise<boolean> | boolean,
  intervalMs = 50,
): Promise<void> {
  while (!(await check())) {
    await new Promise((resolve) =>
      intervalMs === 0 ? setImmediate(resolve) : setTimeout(resolve, intervalMs),
    );
  }
}
