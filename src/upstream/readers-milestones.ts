/** Readers of milestones: recent milestones, an artist's timeline (ids derived where missing), and facts. */

import { byNumber, listOf, pageOf, withUnreadable } from './readers-common.js';
import { Fields, type Presence, type Reader } from './reading.js';
import type { MilestoneFactRecord, MilestoneRecord, Page, RecordList } from './records.js';

type MilestoneDraft = Omit<MilestoneRecord, 'id' | 'idDerived'> & { readonly id: string | null };

/**
 * `artistSlug`: the artist the list belongs to (the timeline), when the
 * request says so. The timeline promises only threshold and crossedAt, so
 * its records may leave metric and isAfrobeats out (null, contract v3); the
 * recent list promises every field of Part 1's milestone record, and one
 * without them is left out of its page. Either way, a value that is present
 * but unreadable is named in `unreadable`, never a silent null.
 */
function readMilestoneOf(artistSlug: string | null): Reader<MilestoneDraft> {
  const promised: Presence = artistSlug === null ? 'required' : 'optional';
  return (value, notes, at = '') => {
    const f = new Fields(value, 'a milestone', at, notes);
    const sentArtist = f.string('artistSlug', artistSlug === null ? 'required' : 'optional');
    return withUnreadable(
      {
        id: f.string('id'),
        metric: f.string('metric', promised),
        threshold: f.integer('threshold', 'required'),
        crossedAt: f.date('crossedAt', 'required'),
        isAfrobeats: f.boolean('isAfrobeats', promised),
        streamValue: f.integer('streamValue'),
        artistName: f.string('artistName'),
        artistSlug: sentArtist ?? artistSlug,
        artistImageUrl: f.url('artistImageUrl'),
        songId: f.string('songId'),
        songTitle: f.string('songTitle'),
      },
      f,
    );
  };
}

/**
 * Milestones without an upstream id get one derived from everything that
 * tells them apart, numbered when two records are alike in all of it, so
 * derived ids never collide within a list. A part the upstream left out is
 * empty, never guessed: a minimal timeline record (threshold and crossedAt
 * only) is `derived:<artist>|||<threshold>|<crossedAt>`, the same on every
 * read of the same timeline.
 */
function withDerivedIds(drafts: readonly MilestoneDraft[]): MilestoneRecord[] {
  const seen = new Map<string, number>();
  return drafts.map((draft) => {
    if (draft.id !== null) return Object.assign({}, draft, { id: draft.id, idDerived: false });
    const content = [
      draft.artistSlug,
      draft.songId ?? draft.songTitle,
      draft.metric,
      draft.threshold,
      draft.crossedAt,
    ]
      .map((part) => part ?? '')
      .join('|');
    const count = (seen.get(content) ?? 0) + 1;
    seen.set(content, count);
    const id = `derived:${content}${count > 1 ? `#${count}` : ''}`;
    return Object.assign({}, draft, { id, idDerived: true });
  });
}

/** A page of recent milestones. */
export const readMilestonePage: Reader<Page<MilestoneRecord>> = (body, notes) => {
  const page = pageOf(readMilestoneOf(null))(body, notes);
  return Object.assign({}, page, { items: withDerivedIds(page.items) });
};

/** The timeline may omit the artist fields; the slug we asked for fills them. Oldest first. */
export function readTimeline(artistSlug: string): Reader<RecordList<MilestoneRecord>> {
  return (body, notes) => {
    const list = listOf(readMilestoneOf(artistSlug))(body, notes);
    const items = withDerivedIds(list.items).sort(
      (a, b) =>
        (a.crossedAt ?? '9999').localeCompare(b.crossedAt ?? '9999') ||
        byNumber<MilestoneRecord>((m) => m.threshold)(a, b),
    );
    return { items, dropped: list.dropped };
  };
}

/** A fact answers the question asked: the threshold is the one in the request when the body leaves it out. */
export function readMilestoneFact(threshold: number): Reader<MilestoneFactRecord> {
  return (value, notes) => {
    const f = new Fields(value, 'a milestone fact', '', notes);
    return withUnreadable(
      {
        metric: f.identity('metric'),
        threshold: f.integer('threshold') ?? threshold,
        reached: f.boolean('reached'),
        crossedAt: f.date('crossedAt'),
        currentValue: f.integer('currentValue'),
        text: f.string('text'),
      },
      f,
    );
  };
}
