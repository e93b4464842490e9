/**
 * The data generation: which daily refresh of the upstream the gateway has
 * seen. The refresh poll (refresh-poll.ts) advances it when the first page of
 * recent milestones shows ids it has not seen; cached answers remember the
 * generation they were read in, and are revalidated once a newer one is seen.
 *
 * One seam, two stores: in memory (one process) and in Redis (every replica
 * shares one generation), side by side in this directory.
 */

import { utcDayNumber } from '../time.js';
import { isOpen, nextRefreshWindow, type RefreshWindow } from './refresh-window.js';

export interface Generation {
  /** Grows by one each time the upstream is seen to have new data; 0 until the first change. */
  readonly id: number;
  /** When this generation was seen (ISO 8601): a calendar value, from Date. */
  readonly seenAt: string;
  /**
   * How long before `seenAt` the upstream may have refreshed, on the calendar: since the poll
   * before the one that saw it. Absent for the first poll's baseline, which saw no refresh.
   */
  readonly seenWithinMs?: number;
  /** Whether the poll that saw it ran at the steady cadence or the dense one (refresh-window.ts). */
  readonly seenBy?: PollKind;
  /**
   * The artists whose new milestones made each of the latest generations, newest first: at most
   * CHANGES_KEPT of them, back to the first whose poll may not have seen all its new milestones
   * (its page held no milestone seen before, or one without an artist). Absent: none is known.
   */
  readonly milestoneArtists?: readonly GenerationArtists[];
}

/** The artists (lower-case slugs) that generation `id` brought new milestones to. */
export interface GenerationArtists {
  readonly id: number;
  readonly artists: readonly string[];
}

/** One milestone of a poll's page: its id, and its artist's slug when the upstream gave one. */
export interface PolledMilestone {
  readonly id: string;
  readonly artist?: string;
}

/**
 * How many generations' new-milestone artists are kept: a timeline the polls vouch for is still
 * read again once in this many generations (a week of daily refreshes), so that a milestone the
 * recent list never showed (an upstream that backfills one below its first page) is not kept
 * from its artist's page for ever.
 */
export const CHANGES_KEPT = 7;

/** The outcome of comparing one poll's page with what was known. */
export interface Advance {
  readonly generation: Generation;
  /** Ids of the page never seen before, in page order; empty on the first poll ever (the baseline). */
  readonly newIds: readonly string[];
}

export interface GenerationStore {
  /** The shared generation, or undefined when none was recorded (yet, or any more). */
  load(): Promise<Generation | undefined>;
  /**
   * Records the ids of one poll's page, atomically: a new generation when some
   * id is new, otherwise the same one. `floorId` is the generation the caller
   * knew, so a store that lost its data never goes back behind it. A new
   * generation records how long before `seenAt` the poll before it ran.
   */
  advance(
    page: readonly PolledMilestone[],
    seenAt: string,
    floorId: number,
    kind?: PollKind,
  ): Promise<Advance>;
}

/** Which cadence a poll ran at: the steady one, or the dense one while a refresh is expected. */
export type PollKind = 'steady' | 'dense';

/** How many ids are remembered: a page of 100 and room for ids that drop off and come back. */
export const KNOWN_IDS_LIMIT = 1_000;

/** The local view of the generation, fed by the poll and by other replicas. */
export class GenerationView {
  #generation: Generation | undefined;
  #window: RefreshWindow | undefined;
  readonly #listeners = new Set<(generation: Generation) => void>();

  /** `clock`: the calendar the window the next refresh is expected in is read on. */
  constructor(private readonly clock: () => Date = () => new Date()) {}

  /**
   * Whether the upstream has most likely refreshed since the current generation was seen: its
   * daily refresh is due, learned from when it was seen to refresh, and no poll has seen it yet.
   */
  refreshExpected(): boolean {
    return this.#window !== undefined && isOpen(this.#window, this.clock());
  }

  /**
   * The newest generation this process knows of, without waiting (resolvers and the cache read
   * it on every access); undefined before any poll has run anywhere.
   */
  now(): Generation | undefined {
    return this.#generation;
  }

  /** Called with each newer generation this process learns of; returns an unsubscribe function. */
  onChange(listener: (generation: Generation) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Takes `generation` when it is newer than what is known; never goes back. */
  learn(generation: Generation | undefined): void {
    if (generation === undefined) return;
    const known = this.#generation;
    if (known !== undefined && known.id >= generation.id) return;
    this.#generation = generation;
    this.#window = nextRefreshWindow(generation);
    if (known === undefined) return;
    for (const listener of this.#listeners) listener(generation);
  }
}

/**
 * Whether an answer read in generation `read` is still current. An answer read
 * before any generation was known belongs to the first one (0): the baseline
 * poll records what the upstream already had, it is not a change.
 */
export function isCurrentGeneration(
  read: number | undefined,
  current: Generation | undefined,
): boolean {
  return generationsBehind(read, current) === 0;
}

/** How many generations have been seen since an answer was read in `read` (0: it is current). */
export function generationsBehind(
  read: number | undefined,
  current: Generation | undefined,
): number {
  return current === undefined ? 0 : Math.max(0, current.id - (read ?? 0));
}

/**
 * Whether `now`'s UTC day has seen the upstream's new data: the current generation is a change
 * (not the first poll's baseline) and was seen that day, on this gateway's calendar.
 */
export function seenOn(current: Generation | undefined, now: Date): boolean {
  return (
    current !== undefined && current.id > 0 && daySeen(current) === utcDayNumber(now.getTime())
  );
}

/** Each generation's UTC day, by its epoch day number: asked for on every read of a record. */
const daysSeen = new WeakMap<Generation, number>();

function daySeen(generation: Generation): number {
  let day = daysSeen.get(generation);
  if (day === undefined) {
    day = utcDayNumber(Date.parse(generation.seenAt));
    daysSeen.set(generation, day);
  }
  return day;
}

/**
 * Whether the milestones of `artist` are the same in `current` as in generation `read` (an answer
 * read before any generation belongs to the first, 0): every generation since named all the
 * artists it brought new milestones to, and none named this one. A timeline read then is
 * current without a call: the refresh poll, which reads the newest milestones anyway, saw it
 * did not change.
 */
export function milestonesUnchangedSince(
  read: number | undefined,
  artist: string,
  current: Generation | undefined,
): boolean {
  if (current === undefined) return false;
  const changes = current.milestoneArtists ?? [];
  const slug = artist.toLowerCase();
  for (let id = (read ?? 0) + 1; id <= current.id; id += 1) {
    const change = changes.find((candidate) => candidate.id === id);
    if (change === undefined || change.artists.includes(slug)) return false;
  }
  return true;
}

/**
 * The artists a poll's new milestones belong to (lower-case slugs, once each), or undefined when
 * the page cannot tell them all: no milestone on it was seen before (more may lie past it), or a
 * new one names no artist. Both stores decide so (the Redis one in Lua, as `ADVANCE` says).
 */
export function artistsOfNewMilestones(
  page: readonly PolledMilestone[],
  newIds: readonly string[],
): string[] | undefined {
  if (newIds.length === 0 || newIds.length >= page.length) return undefined;
  const fresh = new Set(newIds);
  const artists = new Set<string>();
  for (const milestone of page) {
    if (!fresh.has(milestone.id)) continue;
    if (milestone.artist === undefined || milestone.artist === '') return undefined;
    artists.add(milestone.artist.toLowerCase());
  }
  return [...artists];
}

/** The change history after generation `id` brought `artists` (undefined: unknown, the history starts again). */
export function withChange(
  previous: readonly GenerationArtists[] | undefined,
  id: number,
  artists: readonly string[] | undefined,
): readonly GenerationArtists[] {
  if (artists === undefined) return [];
  return [{ id, artists }, ...(previous ?? [])].slice(0, CHANGES_KEPT);
}
