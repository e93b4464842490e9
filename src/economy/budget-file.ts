/**
 * The budget file of a gateway without Redis: the day's counts on disk,
 * written before the calls they allow leave, read back at start.
 *
 * It is written in place, in turn into two slots (`<file>` and `<file>.1`),
 * each a header line (format, sequence number, length and SHA-1 of the
 * counts) and the counts. A crash in the middle of a write tears only the
 * slot being written, whose checksum then fails: start reads the newest
 * slot that is whole, and the other one holds every call that left, since
 * none leaves before its write is done.
 *
 * Not a temporary file renamed over the old one, which is atomic too: on
 * ext4 a rename over a file makes the kernel flush the new file's data
 * first, which now and then blocks the event loop for hundreds of ms, where
 * a write in place does not (docs/decisions/budget-file-written-in-place.md).
 */
import { hash } from 'node:crypto';
import {
  closeSync,
  constants,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../config-error.js';

const FORMAT = 'music-stats-budget 1';
const HEADER = new RegExp(`^${FORMAT} (\\d+) (\\d+) ([0-9a-f]{40})$`);

interface Slot {
  readonly sequence: number;
  readonly counts: string;
}

export class BudgetFile {
  readonly #paths: readonly [string, string];
  /** As found at start. */
  readonly #found: readonly (Slot | null | undefined)[];
  /** The newest whole slot's: the next write goes to the other slot, the one a crash may have torn. */
  #sequence: number;

  /** Reads both slots; a file that cannot be read stops the start (ConfigError), as a bad setting does. */
  constructor(readonly path: string) {
    this.#paths = [path, `${path}.1`];
    try {
      this.#found = this.#paths.map(readSlot);
    } catch (error) {
      throw new ConfigError(
        `Invalid configuration:\n  BUDGET_FILE: cannot read ${path} (${(error as Error).message})`,
      );
    }
    this.#sequence = Math.max(-1, ...this.#found.map((slot) => slot?.sequence ?? -1));
  }

  /**
   * The counts of the newest whole slot; undefined when neither slot exists. Throws when a slot
   * exists but neither is whole (a file that is not a budget file).
   */
  read(): string | undefined {
    const slots = this.#found;
    const whole = slots.filter((slot): slot is Slot => slot !== undefined && slot !== null);
    if (whole.length === 0) {
      if (slots.some((slot) => slot === null)) throw new NotABudgetFile(this.path);
      return undefined;
    }
    return whole.reduce((newest, slot) => (slot.sequence > newest.sequence ? slot : newest)).counts;
  }

  /** Writes `counts` over the older slot; throws when the disk refuses (the caller's calls then do not leave). */
  write(counts: string): void {
    const sequence = this.#sequence + 1;
    const index = sequence % 2;
    const body = Buffer.from(counts);
    const header = `${FORMAT} ${sequence} ${body.length} ${sha1(body)}\n`;
    const bytes = Buffer.concat([Buffer.from(header), body]);
    const descriptor = this.#open(index);
    try {
      writeSync(descriptor, bytes, 0, bytes.length, 0);
      ftruncateSync(descriptor, bytes.length);
    } finally {
      closeSync(descriptor);
    }
    this.#sequence = sequence;
  }

  #open(index: number): number {
    const path = this.#paths[index]!;
    const flags = constants.O_WRONLY | constants.O_CREAT;
    try {
      return openSync(path, flags, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(dirname(path), { recursive: true });
      return openSync(path, flags, 0o600);
    }
  }
}

/** Refusing to start beats forgetting the day: a gateway that starts at zero may overrun it. */
export class NotABudgetFile extends ConfigError {
  constructor(readonly path: string) {
    super(
      `Invalid configuration:\n  BUDGET_FILE: ${path} is not a budget file; move it away to start over`,
    );
  }
}

/** In one call: a Hash object costs more to build than hashing the counts (src/digest.ts). */
function sha1(bytes: Buffer): string {
  return hash('sha1', bytes, 'hex');
}

/** A slot: whole, `null` when it exists but is not whole, undefined when it does not exist. */
function readSlot(path: string): Slot | null | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parseSlot(bytes);
}

function parseSlot(bytes: Buffer): Slot | null | undefined {
  if (bytes.length === 0) return undefined;
  const newline = bytes.indexOf(0x0a);
  const header = newline < 0 ? '' : bytes.subarray(0, newline).toString('latin1');
  const match = HEADER.exec(header);
  // A file written before the slots (plain JSON, replaced by rename) is whole, and the oldest.
  if (match === null) return bytes[0] === 0x7b ? { sequence: 0, counts: bytes.toString() } : null;
  const [, sequence, length, checksum] = match;
  const body = bytes.subarray(newline + 1, newline + 1 + Number(length));
  if (body.length !== Number(length) || sha1(body) !== checksum) return null;
  return { sequence: Number(sequence), counts: body.toString() };
}
