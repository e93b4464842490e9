/**
 * Lines of one message whose fields are fixed but for one number, written as pino writes them.
 *
 * Why not `child.info(...)` for each: pino serializes a child's bindings once, but every line
 * still goes through its general path (the message's formatting, the mixin and hooks looked
 * up, each field's type tested and stringified, the line built of many small strings). Each
 * response-cache hit writes such a line, and that path was a large share of the hit. Here
 * the line is made of pino's own parts (its level label, its time, the child's serialized
 * bindings, its line end) and the one number: byte for byte pino's line, at the cost of a
 * few concatenations. Wherever pino would write the line differently (a mixin, formatters,
 * hooks, serializers, a nested key, a message prefix, a stream that wants metadata), lines
 * go through pino as usual.
 */
import pino, { type Logger } from 'pino';

/** pino's handles on a logger's state (pino.symbols, its public way to them), by name. */
const symbol = (name: string): symbol => {
  const found = (pino.symbols as unknown as Record<string, symbol | undefined>)[name];
  if (found === undefined) throw new Error(`pino has no symbol ${name}`);
  return found;
};
const CHINDINGS = symbol('chindingsSym');
const END = symbol('endSym');
const FORMATTERS = symbol('formattersSym');
const HOOKS = symbol('hooksSym');
const LEVEL_LABELS = symbol('lsCacheSym');
const MESSAGE_KEY = symbol('messageKeySym');
const MIXIN = symbol('mixinSym');
const MESSAGE_PREFIX = symbol('msgPrefixSym');
const NEEDS_METADATA = symbol('needsMetadataGsym');
const NESTED_KEY = symbol('nestedKeySym');
const SERIALIZERS = symbol('serializersSym');
const STRINGIFIERS = symbol('stringifiersSym');
const STREAM = symbol('streamSym');
const TIME = symbol('timeSym');
const WILDCARD = symbol('wildcardFirstSym');

interface LineStream {
  write(line: string): unknown;
}

/** Writes one line at info with `key` set to `value`; undefined leaves it out, as pino does. */
export interface NumberLine {
  (value: number | undefined): void;
  /** Whether its lines are made here (false: through pino, which would write them otherwise). */
  readonly direct: boolean;
}

/**
 * Lines at info of `logger` with `fields` bound, then `key` (the number that changes per line),
 * then `message`; each checks the logger's level when it is written, as pino's would.
 */
export function numberLines(
  logger: Logger,
  fields: Record<string, unknown>,
  key: string,
  message: string,
): NumberLine {
  const child = logger.child(fields);
  const viaPino = (value: number | undefined) => child.info({ [key]: value }, message);
  const part = <T>(name: symbol): T => (child as unknown as Record<symbol, T>)[name];
  const info = logger.levels.values.info as number;
  const stream = part<LineStream & Record<symbol, unknown>>(STREAM);
  const messageKey = part<string>(MESSAGE_KEY);
  const serializers = part<Record<string, unknown>>(SERIALIZERS);
  const stringifiers = part<Record<string | symbol, unknown>>(STRINGIFIERS);
  // Each as pino tests it when it writes a line: present means truthy.
  const asIs = ![
    part<unknown>(MIXIN),
    part<{ log?: unknown }>(FORMATTERS).log,
    part<{ streamWrite?: unknown }>(HOOKS).streamWrite,
    part<{ logMethod?: unknown }>(HOOKS).logMethod,
    part<unknown>(NESTED_KEY),
    typeof part<unknown>(MESSAGE_PREFIX) === 'string',
    serializers[key],
    serializers[messageKey],
    // Redaction's stringifiers: the bindings were redacted when the child was made, and
    // neither the number nor the message may be redacted or rewritten.
    stringifiers[key],
    stringifiers[messageKey],
    stringifiers[WILDCARD],
    stream[NEEDS_METADATA] === true,
  ].some(Boolean);
  const head = part<Record<number, string | undefined>>(LEVEL_LABELS)[info];
  if (!asIs || head === undefined) return Object.assign(viaPino, { direct: false });
  const middle = `${part<string>(CHINDINGS)},${JSON.stringify(key)}:`;
  const tail = `,${JSON.stringify(messageKey)}:${JSON.stringify(message)}${part<string>(END)}`;
  const time = part<() => string>(TIME).bind(child);
  const direct = (value: number | undefined) => {
    // The level is the logger's own, looked at per line: it is turned down when the log breaks.
    if (logger.levelVal > info) return;
    if (value === undefined || !Number.isFinite(value)) {
      viaPino(value);
      return;
    }
    stream.write(head + time() + middle + value + tail);
  };
  return Object.assign(direct, { direct: true });
}
