/**
 * Checks on arguments, made before any upstream call: an argument the
 * upstream would refuse, or that cannot name anything, must not cost budget.
 */
import { MAX_PAGE_SIZE } from '../upstream/endpoints.js';
import { pathValueProblem } from '../upstream/path-values.js';
import { badUserInput } from './errors.js';

/** Upstream slugs are short; anything longer than this cannot name a record. */
export const MAX_SLUG_LENGTH = 256;
export const MAX_TEXT_LENGTH = 200;
/** Default size of leaderboards and trending lists when `limit` is not given. */
export const DEFAULT_LIST_LIMIT = 20;

/**
 * A slug as the upstream can know it: blank space at either end is no part of one (a pasted
 * slug carries it), so it is trimmed rather than paid for as another record.
 */
export function slugArg(rawValue: string, name = 'slug'): string {
  const value = rawValue.trim();
  if (value.length === 0) throw badUserInput(`"${name}" must not be empty`, name);
  if (value.length > MAX_SLUG_LENGTH) {
    throw badUserInput(`"${name}" must be at most ${MAX_SLUG_LENGTH} characters`, name);
  }
  const problem = pathValueProblem(value);
  if (problem !== undefined) throw badUserInput(`"${name}" ${problem}`, name);
  return value;
}

/**
 * Artist slugs "have the form of a lower-case name" (upstream description): `Burna-Boy` can only
 * mean `burna-boy`, and each spelling would otherwise cost its own upstream call.
 */
export function artistSlugArg(value: string, name = 'slug'): string {
  return slugArg(value, name).toLowerCase();
}

/** Territory codes are upper case upstream (`NG`, `UK`), as country codes are. */
export function territoryArg(value: string, name = 'territory'): string {
  return slugArg(value, name).toUpperCase();
}

/** A search the upstream matches without regard to case: one spelling, one call. */
export function searchArg(value: string, name: string): string {
  return textArg(value, name).toLowerCase();
}

export function optionalSearchArg(value: string | null | undefined, name: string): string | null {
  return value === null || value === undefined ? null : searchArg(value, name);
}

export function textArg(value: string, name: string): string {
  const trimmed = value.trim();
  if (trimmed.length === 0) throw badUserInput(`"${name}" must not be empty`, name);
  if (trimmed.length > MAX_TEXT_LENGTH) {
    throw badUserInput(`"${name}" must be at most ${MAX_TEXT_LENGTH} characters`, name);
  }
  return trimmed;
}

/** ISO 3166-1 alpha-2, as the upstream spells it (upper case; `UK` for the United Kingdom). */
export function countryArg(value: string | null | undefined, name = 'country'): string | null {
  if (value === null || value === undefined) return null;
  if (!/^[A-Za-z]{2}$/.test(value))
    throw badUserInput(`"${name}" must be a two-letter country code`, name);
  return value.toUpperCase();
}

export function letterArg(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (!/^[\p{L}\p{N}]$/u.test(value))
    throw badUserInput('"letter" must be a single letter or digit', 'letter');
  return value.toUpperCase();
}

export function limitArg(
  value: number | null | undefined,
  max: number,
  fallback: number,
  name = 'limit',
): number {
  if (value === null || value === undefined) return fallback;
  if (value < 0 || value > max) throw badUserInput(`"${name}" must be between 0 and ${max}`, name);
  return value;
}

export function listLimitArg(value: number | null | undefined): number {
  return limitArg(value, MAX_PAGE_SIZE, DEFAULT_LIST_LIMIT);
}

export function thresholdArg(value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw badUserInput('"threshold" must be a positive integer', 'threshold');
  }
  return value;
}
