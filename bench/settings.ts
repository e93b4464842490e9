/**
 * A bench script's numeric settings, read from the environment: the fallback when unset or
 * blank, and for anything else that is not a number of at least `min` (a whole one when
 * `whole`) a message naming the setting and exit status 2, before anything is started.
 */
export function numberSetting(name: string, fallback: number, min = 0, whole = false): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || (whole && !Number.isInteger(value))) {
    console.error(
      `${name} must be a ${whole ? 'whole ' : ''}number of at least ${min}, got "${raw}"`,
    );
    process.exit(2);
  }
  return value;
}

/** Node flags for a process the bench starts, from a setting of words separated by spaces. */
export const nodeArgsSetting = (name: string): string[] =>
  (process.env[name] ?? '').split(/\s+/).filter(Boolean);
