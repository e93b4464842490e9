/** `isCalendarDay` (src/time.ts) reads days from their characters: it must agree with the calendar. */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { isCalendarDay } from '../src/time.js';

/** The calendar's answer: the day a Date makes of the text is the text. */
const existsAsDate = (text: string) => {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
};

it('accepts exactly the YYYY-MM-DD days that exist', () => {
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
      (year, month, day) => {
        const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
        expect(isCalendarDay(text)).toBe(existsAsDate(text));
      },
    ),
    { numRuns: 5_000 },
  );
  for (const day of ['2024-02-29', '2000-02-29', '2026-12-31'])
    expect(isCalendarDay(day)).toBe(true);
  for (const text of [
    '1900-02-29',
    '2026-02-30',
    '2026-04-31',
    '2026-1-01',
    '2026-01-0a',
    '2026/01/01',
    ' 2026-01-01',
    '+02026-01-01',
    '2026-01-01T00:00Z',
    '',
  ])
    expect(isCalendarDay(text)).toBe(false);
});
