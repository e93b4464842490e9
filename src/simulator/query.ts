/** Query-string validation with class-validator style messages, as a NestJS upstream answers. */
import { badRequest } from './errors.js';

export type Query = Readonly<Record<string, string>>;

const INTEGER = /^-?\d+$/;

export function integerParam(
  query: Query,
  name: string,
  options: { min?: number; max?: number } = {},
): number | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!INTEGER.test(raw) || !Number.isSafeInteger(value))
    throw badRequest(`${name} must be an integer number`);
  if (options.min !== undefined && value < options.min)
    throw badRequest(`${name} must not be less than ${options.min}`);
  if (options.max !== undefined && value > options.max)
    throw badRequest(`${name} must not exceed ${options.max}`);
  return value;
}

export function booleanParam(query: Query, name: string): boolean | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw badRequest(`${name} must be a boolean value`);
}

export function enumParam<T extends string>(
  query: Query,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  const found = allowed.find((value) => value === raw);
  if (found === undefined)
    throw badRequest(`${name} must be one of the following values: ${allowed.join(', ')}`);
  return found;
}

/** Optional text filters: an empty value means "no filter". */
export function textParam(query: Query, name: string): string | undefined {
  const raw = query[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

export function requiredText(query: Query, name: string): string {
  const raw = query[name];
  if (raw === undefined || raw.trim() === '') throw badRequest(`${name} should not be empty`);
  return raw;
}

/** Path thresholds: a positive integer written in decimal. */
export function positiveIntegerSegment(raw: string, name: string): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < 1) {
    throw badRequest(`${name} must be a positive integer`);
  }
  return value;
}

export function parseQuery(search: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    // The first occurrence wins when a parameter repeats.
    if (!Object.hasOwn(query, key)) query[key] = value;
  }
  return query;
}
