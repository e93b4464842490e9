/**
 * Lines of one message whose fields are the same from line to line but for some numbers,
 * written as pino writes them.
 *
 * Why not `logger.info(...)` for each: every line goes through pino's general path (the
 * message formatted, the mixin and hooks looked up, each field typed, escaped and
 * stringified, the line built of many small strings). The request log writes such a line
 * for every request, and that path was a large share of a response-cache hit. Here pino
 * serializes the line once, with a placeholder for each number, and the line is cut at the
 * placeholders: each line after is those pieces, its time and its numbers. Byte for byte
 * pino's line, since pino made it, redaction of the fixed fields included. Wherever pino
 * would write a line otherwise (a mixin, hooks, a message prefix, a stream that wants
 * metadata, a number it would rewrite or redact), lines go through pino as usual.
 */
import pino, { type Logger } from 'pino';

/** pino's handles on a logger's state (pino.symbols, its public way to them), by name. */
const symbol = (name: string): symbol => {
  const found = (pino.symbols as unknown as Record<string, symbol | undefined>)[name];
  if (found === undefined) throw new Error(`pino has no symbol ${name}`);
  return found;
};
const AS_JSON = symbol('asJsonSym');
const FORMATTERS = symbol('formattersSym');
const HOOKS = symbol('hooksSym');
const LEVEL_LABELS = symbol('lsCacheSym');
const MIXIN = symbol('mixinSym');
const MESSAGE_PREFIX = symbol('msgPrefixSym');
const NEEDS_METADATA = symbol('needsMetadataGsym');
const SERIALIZERS = symbol('serializersSym');
const STREAM = symbol('streamSym');
const STRINGIFIERS = symbol('stringifiersSym');
const TIME = symbol('timeSym');
const WILDCARD = symbol('wildcardFirstSym');

/** Stands for a number in the line pino makes once; no other field can write it. */
const PLACEHOLDER = -1.2345678912345679e-300;
const PLACEHOLDER_TEXT = String(PLACEHOLDER);

/** A field of the lines: a name and the value every line has, or a name alone for a number given per line. */
export type LineField = string | readonly [name: string, value: unknown];

/** Writes one line at info with the numbers of its number fields, in order; undefined leaves one out, as pino does. */
export interface FieldLine {
  (numbers: readonly (number | undefined)[]): void;
  /** Whether its lines are made here (false: through pino, which would write them otherwise). */
  readonly direct: boolean;
}

interface LineStream {
  write(line: string): unknown;
}

/**
 * Lines at info of `logger` with `fields` in their order, then `message`; each looks at the
 * logger's level when it is written, as pino's would.
 */
export function fieldLines(
  logger: Logger,
  fields: readonly LineField[],
  message: string,
): FieldLine {
  const objectOf = (numbers: readonly (number | undefined)[]) => {
    const object: Record<string, unknown> = {};
    let next = 0;
    for (const field of fields) {
      if (typeof field === 'string') object[field] = numbers[next++];
      else object[field[0]] = field[1];
    }
    return object;
  };
  const viaPino = (numbers: readonly (number | undefined)[]) =>
    logger.info(objectOf(numbers), message);
  const numberNames = fields.filter((field): field is string => typeof field === 'string');
  const count = numberNames.length;
  const made = madeOnce(logger, objectOf(new Array(count).fill(PLACEHOLDER)), numberNames, message);
  if (made === undefined) return Object.assign(viaPino, { direct: false });
  const { head, time, pieces, stream, level } = made;
  const direct = (numbers: readonly (number | undefined)[]) => {
    // The level is the logger's own, looked at per line: it is turned down when the log breaks.
    if (logger.levelVal > level) return;
    let line = head + time() + pieces[0];
    for (let index = 0; index < count; index += 1) {
      const value = numbers[index];
      if (value === undefined || !Number.isFinite(value)) {
        viaPino(numbers);
        return;
      }
      line += value + (pieces[index + 1] as string);
    }
    stream.write(line);
  };
  return Object.assign(direct, { direct: true });
}

/** One line at info with one number field, `key`, after `fields`. */
export function numberLines(
  logger: Logger,
  fields: Record<string, unknown>,
  key: string,
  message: string,
): ((value: number | undefined) => void) & { readonly direct: boolean } {
  const line = fieldLines(logger, [...Object.entries(fields), key], message);
  const numbers: (number | undefined)[] = [undefined];
  const write = (value: number | undefined) => {
    numbers[0] = value;
    line(numbers);
  };
  return Object.assign(write, { direct: line.direct });
}

/**
 * pino's line for `sample` (numbers as placeholders), cut at them, and what every line then
 * needs; undefined where pino would not write each line the same way.
 */
function madeOnce(
  logger: Logger,
  sample: Record<string, unknown>,
  numberNames: readonly string[],
  message: string,
) {
  const part = <T>(name: symbol): T => (logger as unknown as Record<symbol, T>)[name];
  const stream = part<LineStream & Record<symbol, unknown>>(STREAM);
  const hooks = part<{ logMethod?: unknown; streamWrite?: unknown }>(HOOKS);
  const serializers = part<Record<string, unknown>>(SERIALIZERS);
  const stringifiers = part<Record<string | symbol, unknown>>(STRINGIFIERS);
  // Each as pino tests it when it writes a line: present means truthy. A formatter of the
  // whole object may read the numbers; keys that are array indexes would be put first by any
  // object, out of the fields' order.
  const differs = [
    part<unknown>(MIXIN),
    part<{ log?: unknown }>(FORMATTERS).log,
    hooks.logMethod,
    hooks.streamWrite,
    typeof part<unknown>(MESSAGE_PREFIX) === 'string',
    stream[NEEDS_METADATA] === true,
    stringifiers[WILDCARD],
    ...numberNames.map((name) => serializers[name] || stringifiers[name]),
    Object.keys(sample).some((name) => /^(0|[1-9]\d*)$/.test(name)),
  ].some(Boolean);
  const level = logger.levels.values.info as number;
  const head = part<Record<number, string | undefined>>(LEVEL_LABELS)[level];
  if (differs || head === undefined) return undefined;
  const asJson =
    part<(object: object, message: string, level: number, time: string) => string>(AS_JSON);
  const line = asJson.call(logger, sample, message, level, '');
  if (!line.startsWith(head)) return undefined;
  const pieces = line.slice(head.length).split(PLACEHOLDER_TEXT);
  // A number pino rewrote or redacted is not where its placeholder was: such lines are pino's.
  if (pieces.length !== numberNames.length + 1) return undefined;
  const time = part<() => string>(TIME).bind(logger);
  return { head, time, pieces, stream, level };
}
