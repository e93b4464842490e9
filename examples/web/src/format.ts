/**
 * Display formats. Plain functions with no DOM or React, so the browser tests
 * import them to compute the text they expect.
 */

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const exact = new Intl.NumberFormat('en');
const day = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const shortDay = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});
const regions = new Intl.DisplayNames(['en'], { type: 'region' });

/** Shown where the gateway answered null (the upstream did not know the value). */
export const MISSING = '—';

/** 23818798789 → "23.8B", 16455143 → "16.5M", 950 → "950". */
export function formatCount(value: number | null | undefined): string {
  return value == null ? MISSING : compact.format(value);
}

/** 23818798789 → "23,818,798,789", for tooltips next to a compact number. */
export function formatExact(value: number | null | undefined): string {
  return value == null ? MISSING : exact.format(value);
}

/** "2026-11-20" → "20 Nov 2026". */
export function formatDay(isoDay: string | null | undefined): string {
  return isoDay == null ? MISSING : day.format(new Date(`${isoDay}T00:00:00Z`));
}

/** "2026-11-20" → "20 Nov". */
export function formatShortDay(isoDay: string): string {
  return shortDay.format(new Date(`${isoDay}T00:00:00Z`));
}

/** "NG" → "Nigeria"; the upstream writes the United Kingdom as "UK". */
export function countryName(code: string | null | undefined): string {
  if (code == null || code === '') return 'Unknown country';
  try {
    return regions.of(code.toUpperCase() === 'UK' ? 'GB' : code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

const SPECIAL_WORDS: Record<string, string> = {
  itunes: 'iTunes',
  youtube: 'YouTube',
  tiktok: 'TikTok',
};

/** "official_afrobeats_chart" → "Official Afrobeats Chart", "spotify_daily_ng" → "Spotify Daily NG". */
export function humanize(name: string): string {
  return name
    .split(/[_\s-]+/)
    .filter((word) => word !== '')
    .map((word) => {
      const lower = word.toLowerCase();
      const special = SPECIAL_WORDS[lower];
      if (special !== undefined) return special;
      if (lower.length <= 2) return lower.toUpperCase();
      return lower[0]?.toUpperCase() + lower.slice(1);
    })
    .join(' ');
}

/** Up to two initials for an avatar: "Koffi Bamba" → "KB". */
export function initials(name: string): string {
  const words = name.split(/\s+/).filter((word) => word !== '');
  return words
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}
