/**
 * The primitives of tolerant reading, shared by every reader in `readers.ts`.
 *
 * Three outcomes for a field, and only three:
 * - readable, perhaps after a tolerated variation (a numeric string, a
 *   snake_case name, a timestamp for a date): the value, and a note so that
 *   an operator can see how the upstream really answers;
 * - absent (missing or null): `null`, never an invented value;
 * - present but unreadable (an impossible date, a count beyond 2^53, a word
 *   where a number belongs): `null` plus an entry in the record's
 *   `unreadable` map, which the schema turns into UPSTREAM_INVALID_RESPONSE
 *   at that field alone.
 *
 * How much a field matters is its `Presence`. A record without a `required`
 * field (one that identifies it, or one the contract promises non-null)
 * cannot be read at all (`ShapeError`): in a list it is left out and
 * reported, so that it cannot take the list's other records with it; in a
 * single-record body the whole read fails.
 */
import { isCalendarDay } from '../time.js';
import type { DroppedRecord, RecordList } from './records.js';

export class ShapeError extends Error {
  override readonly name = 'ShapeError';
}

/** One tolerated or unreadable value, as logged for operators. */
export interface ReadNote {
  /** Where in the body, e.g. `data[3]`. */
  readonly at: string;
  readonly field: string;
  /** What the upstream sent, shortened. */
  readonly value: string;
  readonly note: string;
}

/** Collects the notes of one body; the upstream layer logs them with the request path. */
export class ReadNotes {
  readonly notes: ReadNote[] = [];

  add(at: string, field: string, value: unknown, note: string): void {
    this.notes.push({ at, field, value: shortened(value), note });
  }
}

/**
 * `optional`: absent is null. `expected`: absent is unreadable (a field the
 * contract promises but the upstream only sometimes sends). `required`:
 * absent or unreadable, the record cannot be read.
 */
export type Presence = 'optional' | 'expected' | 'required';

/** `at`: where the value sits in the body, for notes; `index`: its place in its list, when in one. */
export type Reader<T> = (value: unknown, notes: ReadNotes, at?: string, index?: number) => T;

type Json = Record<string, unknown>;

const SAFE_INTEGER_TEXT = /^-?\d{1,16}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

function shortened(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value));
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

export function objectAt(value: unknown, what: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ShapeError(`expected ${what} to be an object`);
  }
  return value as Json;
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The fields of one upstream record, read one by one with the policy above. */
export class Fields {
  readonly #o: Json;
  readonly #unreadable: Record<string, string> = {};

  constructor(
    value: unknown,
    what: string,
    readonly at: string,
    private readonly log: ReadNotes,
  ) {
    this.#o = objectAt(value, what);
  }

  /** The fields that could not be read, with why; undefined when all could (most records). */
  get unreadable(): Readonly<Record<string, string>> | undefined {
    return Object.keys(this.#unreadable).length > 0 ? { ...this.#unreadable } : undefined;
  }

  /** The raw value under its documented name, or its snake_case alias. */
  raw(key: string): unknown {
    if (Object.hasOwn(this.#o, key)) return this.#o[key];
    const alias = snakeCase(key);
    if (alias !== key && Object.hasOwn(this.#o, alias)) {
      this.log.add(this.at, key, alias, `read from the snake_case name "${alias}"`);
      return this.#o[alias];
    }
    return undefined;
  }

  note(key: string, value: unknown, note: string): void {
    this.log.add(this.at, key, value, note);
  }

  /** Marks `key` unreadable; its value becomes null and its field an error. */
  invalid(key: string, value: unknown, reason: string): null {
    this.#unreadable[key] = reason;
    this.log.add(this.at, key, value, reason);
    return null;
  }

  #absent(key: string, presence: Presence): null {
    if (presence === 'required') throw new ShapeError(`"${key}" is missing`);
    return presence === 'expected' ? this.invalid(key, undefined, `"${key}" is missing`) : null;
  }

  /** Marks `key` unreadable, or refuses the whole record when the field is required. */
  #unreadableValue(key: string, value: unknown, reason: string, presence: Presence): null {
    if (presence === 'required') throw new ShapeError(`${reason}: ${shortened(value)}`);
    return this.invalid(key, value, reason);
  }

  /** A field that identifies the record: without it the record cannot be read at all. */
  identity(key: string): string {
    return this.string(key, 'required') as string;
  }

  string(key: string, presence: Presence = 'optional'): string | null {
    const value = this.raw(key);
    if (value === undefined || value === null || value === '') return this.#absent(key, presence);
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isFinite(value)) {
      this.note(key, value, 'a number where a string was expected');
      return String(value);
    }
    return this.#unreadableValue(key, value, `"${key}" is not a string`, presence);
  }

  /** Counts below 2^53; some APIs send them as numeric strings. Anything else is unreadable, not rounded. */
  integer(key: string, presence: Presence = 'optional'): number | null {
    const value = this.raw(key);
    if (value === undefined || value === null) return this.#absent(key, presence);
    let number: number;
    if (typeof value === 'number') {
      number = value;
    } else if (typeof value === 'string' && SAFE_INTEGER_TEXT.test(value.trim())) {
      number = Number(value.trim());
      if (Number.isSafeInteger(number))
        this.note(key, value, 'a numeric string where a number was expected');
    } else {
      return this.#unreadableValue(key, value, `"${key}" is not an integer`, presence);
    }
    if (!Number.isInteger(number))
      return this.#unreadableValue(key, value, `"${key}" is not an integer`, presence);
    if (!Number.isSafeInteger(number))
      return this.#unreadableValue(
        key,
        value,
        `"${key}" is beyond 2^53 and cannot be sent exactly`,
        presence,
      );
    return number;
  }

  float(key: string, presence: Presence = 'optional'): number | null {
    const value = this.raw(key);
    if (value === undefined || value === null) return this.#absent(key, presence);
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
      this.note(key, value, 'a numeric string where a number was expected');
      return Number(value);
    }
    return this.#unreadableValue(key, value, `"${key}" is not a number`, presence);
  }

  boolean(key: string, presence: Presence = 'optional'): boolean | null {
    const value = this.raw(key);
    if (value === undefined || value === null) return this.#absent(key, presence);
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 'false') {
      this.note(key, value, 'a string where a boolean was expected');
      return value === 'true';
    }
    return this.#unreadableValue(key, value, `"${key}" is not a boolean`, presence);
  }

  /** A UTC day. An ISO timestamp stands for the UTC day it falls on; an impossible day is unreadable. */
  date(key: string, presence: Presence = 'optional'): string | null {
    const value = this.raw(key);
    if (value === undefined || value === null || value === '') return this.#absent(key, presence);
    if (typeof value === 'string' && isCalendarDay(value)) return value;
    if (typeof value === 'string' && TIMESTAMP.test(value) && isCalendarDay(value.slice(0, 10))) {
      const instant = Date.parse(value);
      if (!Number.isNaN(instant)) {
        this.note(key, value, 'a timestamp where a YYYY-MM-DD date was expected');
        return new Date(instant).toISOString().slice(0, 10);
      }
    }
    return this.#unreadableValue(
      key,
      value,
      `"${key}" is not a YYYY-MM-DD date that exists`,
      presence,
    );
  }

  /** Only absolute http(s) URLs are passed on; anything else would fail the URL scalar later. */
  url(key: string): string | null {
    const value = this.string(key);
    if (value === null) return null;
    if (URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)) return value;
    return this.invalid(key, value, `"${key}" is not an absolute http(s) URL`);
  }

  /** One of `allowed`, compared after `normalize`. */
  oneOf<T extends string>(
    key: string,
    allowed: readonly T[],
    normalize: (text: string) => string,
    presence: Presence = 'optional',
  ): T | null {
    const value = this.string(key, presence);
    if (value === null) return null;
    const normal = normalize(value) as T;
    if (allowed.includes(normal)) return normal;
    return this.#unreadableValue(
      key,
      value,
      `"${key}" is not one of ${allowed.join(', ')}`,
      presence,
    );
  }

  /** A nested list: null when absent, unreadable when not a list, unreadable items left out. */
  list<T>(key: string, read: Reader<T>): RecordList<T> | null {
    const value = this.raw(key);
    if (value === undefined || value === null) return null;
    if (!Array.isArray(value)) return this.invalid(key, value, `"${key}" is not a list`);
    return readItems(value, read, this.log, `${this.at}.${key}`);
  }
}

/** Reads each item; an item that cannot be read is left out and reported with its index. */
export function readItems<T>(
  items: readonly unknown[],
  read: Reader<T>,
  log: ReadNotes,
  at: string,
): RecordList<T> {
  const kept: T[] = [];
  const dropped: DroppedRecord[] = [];
  items.forEach((item, index) => {
    try {
      kept.push(read(item, log, `${at}[${index}]`, index));
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      dropped.push({ index, reason: error.message });
      log.add(`${at}[${index}]`, '', item, `record left out: ${error.message}`);
    }
  });
  return { items: kept, dropped };
}

/** A list body: a bare array, or the same array under `data`. */
export function listBody(body: unknown, log: ReadNotes): { items: unknown[]; at: string } {
  if (Array.isArray(body)) return { items: body, at: '' };
  const data = objectAt(body, 'the body').data;
  if (!Array.isArray(data)) throw new ShapeError('expected a list body');
  log.add('', 'data', '[...]', 'a list wrapped in {"data": [...]}');
  return { items: data, at: 'data' };
}
