/** How the bench scripts print their figures: numbers as en-US, the middle of a run's values. */

export const format = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
