/**
 * Tolerant readers: the only code that looks inside upstream JSON.
 *
 * The upstream documents few of its bodies (upstream-api.md, Part 2), so every
 * reader follows the policy of `reading.ts`: unknown fields are ignored,
 * unambiguous variations are accepted and noted, absent fields are null,
 * unreadable ones are named in the record's `unreadable`, and a record
 * without the fields that identify it is left out of its list. Nothing is
 * invented.
 */
import {
  Fields,
  listBody,
  objectAt,
  type Presence,
  type Reader,
  readItems,
  ShapeError,
} from './reading.js';
import type {
  AlbumRecord,
  AlbumSummary,
  AlbumType,
  ArtistChartRecord,
  ArtistLink,
  ArtistProfile,
  ArtistSummary,
  AwardRecord,
  ChartEntryRecord,
  ChartRecord,
  ChartSummaryRecord,
  ChartTrend,
  MilestoneFactRecord,
  MilestoneRecord,
  Page,
  RankedRecord,
  RecordList,
  SongRecord,
  SongSummary,
  StreamSnapshotRecord,
  TierArtistRecord,
  TierSongRecord,
  TrackRecord,
} from './records.js';

export { type Reader, ShapeError } from './reading.js';

const CHART_TRENDS: readonly ChartTrend[] = ['NEW', 'UP', 'DOWN', 'SAME', 'RE'];
const ALBUM_TYPES: readonly AlbumType[] = ['album', 'single', 'ep'];
const upper = (text: string) => text.trim().toUpperCase();
const lower = (text: string) => text.trim().toLowerCase();

/** Only the fields that were unreadable, so that most records carry nothing extra. */
function withUnreadable<T extends object>(record: T, fields: Fields): T {
  const unreadable = fields.unreadable;
  return unreadable === undefined ? record : { ...record, unreadable };
}

/** A list body, bare or under `data`, read item by item. */
export function listOf<T>(read: Reader<T>): Reader<RecordList<T>> {
  return (body, notes) => {
    const { items, at } = listBody(body, notes);
    return readItems(items, read, notes, at);
  };
}

/** A paginated body: `{ data, meta: { total } }` (Part 1 documents the envelope). */
export function pageOf<T>(read: Reader<T>): Reader<Page<T>> {
  return (body, notes) => {
    const envelope = objectAt(body, 'the body');
    if (!Array.isArray(envelope.data)) throw new ShapeError('expected "data" to be a list');
    const meta = new Fields(envelope.meta, '"meta"', 'meta', notes);
    const total = meta.integer('total');
    if (total === null) throw new ShapeError('expected "meta.total" to be an integer');
    return { ...readItems(envelope.data, read, notes, 'data'), total: Math.max(total, 0) };
  };
}

function artistSummaryFields(f: Fields): ArtistSummary {
  return {
    id: f.string('id'),
    slug: f.identity('slug'),
    name: f.identity('name'),
    imageUrl: f.url('imageUrl'),
    country: f.string('country'),
    isAfrobeats: f.boolean('isAfrobeats'),
    totalStreams: f.integer('totalStreams'),
    dailyStreams: f.integer('dailyStreams'),
    monthlyListeners: f.integer('monthlyListeners'),
  };
}

export const readArtistSummary: Reader<ArtistSummary> = (value, notes, at = '') => {
  const f = new Fields(value, 'an artist', at, notes);
  return withUnreadable(artistSummaryFields(f), f);
};

const readArtistChart: Reader<ArtistChartRecord> = (value, notes, at = '') => {
  const f = new Fields(value, 'a chart position', at, notes);
  return withUnreadable(
    {
      chartName: f.identity('chartName'),
      chartTerritory: f.identity('chartTerritory'),
      chartWeek: f.date('chartWeek'),
      position: f.integer('position', 'required'),
      peakPosition: f.integer('peakPosition'),
      weeksOnChart: f.integer('weeksOnChart'),
    },
    f,
  );
};

const AWARD_RESULTS = ['won', 'nominated'] as const;

const readAward: Reader<AwardRecord> = (value, notes, at = '') => {
  const f = new Fields(value, 'an award', at, notes);
  const result = f.oneOf('result', AWARD_RESULTS, lower);
  return withUnreadable(
    {
      name: f.identity('name'),
      category: f.string('category'),
      year: f.integer('year'),
      won: result === null ? null : result === 'won',
    },
    f,
  );
};

function songSummaryFields(f: Fields, artistSlug: string | null = null): SongSummary {
  const slug = f.identity('slug');
  const title = f.identity('title');
  // Songs listed under an artist belong to it even when the item does not say so.
  const sentArtist = f.string('artistSlug', artistSlug === null ? 'required' : 'optional');
  return {
    id: f.string('id'),
    slug,
    title,
    artistSlug: sentArtist ?? artistSlug,
    artistName: f.string('artistName'),
    albumSlug: f.string('albumSlug'),
    releaseDate: f.date('releaseDate'),
    isAfrobeats: f.boolean('isAfrobeats'),
    imageUrl: f.url('imageUrl'),
    totalStreams: f.integer('totalStreams'),
    dailyStreams: f.integer('dailyStreams'),
  };
}

export const readSongSummary: Reader<SongSummary> = (value, notes, at = '') => {
  const f = new Fields(value, 'a song', at, notes);
  return withUnreadable(songSummaryFields(f), f);
};

/** Songs of one artist: the artist is known from the request when an item leaves it out. */
export function readSongsOf(artistSlug: string): Reader<SongSummary> {
  return (value, notes, at = '') => {
    const f = new Fields(value, 'a song', at, notes);
    return withUnreadable(songSummaryFields(f, artistSlug), f);
  };
}

export const readArtistProfile: Reader<ArtistProfile> = (value, notes) => {
  const f = new Fields(value, 'an artist', '', notes);
  const summary = artistSummaryFields(f);
  return withUnreadable(
    {
      ...summary,
      followers: f.integer('followers'),
      charts: f.list('charts', readArtistChart),
      awards: f.list('awards', readAward),
      topSongs: f.list('topSongs', readSongsOf(summary.slug)),
    },
    f,
  );
};

/** A leaderboard or trending list: each item is a summary plus `rank` and maybe `momentumScore`. */
function rankedListOf<T>(read: Reader<T>): Reader<RecordList<RankedRecord<T>>> {
  return listOf((value, notes, at = '', index = 0) => {
    const f = new Fields(value, 'a ranked item', at, notes);
    let rank = f.integer('rank');
    if (rank === null && f.unreadable?.rank === undefined) {
      // The list is documented as ordered by rank: its position says what the missing rank is.
      f.note('rank', undefined, 'rank missing: taken from the position in the ordered list');
      rank = index + 1;
    }
    if (rank === null) throw new ShapeError('expected "rank" to be an integer');
    return withUnreadable(
      { rank, momentumScore: f.float('momentumScore'), item: read(value, notes, at) },
      f,
    );
  });
}

export const readRankedArtists = rankedListOf(readArtistSummary);
export const readRankedSongs = rankedListOf(readSongSummary);

export const readTierArtist: Reader<TierArtistRecord> = (value, notes, at = '') => {
  const f = new Fields(value, 'a tier artist', at, notes);
  return { crossedAt: f.date('crossedAt'), artist: readArtistSummary(value, notes, at) };
};

export const readTierSong: Reader<TierSongRecord> = (value, notes, at = '') => {
  const f = new Fields(value, 'a tier song', at, notes);
  return { crossedAt: f.date('crossedAt'), song: readSongSummary(value, notes, at) };
};

const readArtistLink: Reader<ArtistLink> = (value, notes, at = '') => {
  const f = new Fields(value, 'a featured artist', at, notes);
  return { slug: f.identity('slug'), name: f.string('name') };
};

export const readSong: Reader<SongRecord> = (value, notes) => {
  const f = new Fields(value, 'a song', '', notes);
  return withUnreadable(
    {
      ...songSummaryFields(f),
      durationMs: f.integer('durationMs'),
      featuredArtists: f.list('featuredArtists', readArtistLink),
    },
    f,
  );
};

function albumSummaryFields(f: Fields): AlbumSummary {
  return {
    id: f.string('id'),
    slug: f.identity('slug'),
    title: f.identity('title'),
    artistSlug: f.string('artistSlug', 'required'),
    artistName: f.string('artistName'),
    albumType: f.oneOf('albumType', ALBUM_TYPES, lower),
    releaseDate: f.date('releaseDate'),
    isAfrobeats: f.boolean('isAfrobeats'),
    imageUrl: f.url('imageUrl'),
    trackCount: f.integer('trackCount'),
    totalStreams: f.integer('totalStreams'),
    dailyStreams: f.integer('dailyStreams'),
  };
}

export const readAlbumSummary: Reader<AlbumSummary> = (value, notes, at = '') => {
  const f = new Fields(value, 'an album', at, notes);
  return withUnreadable(albumSummaryFields(f), f);
};

const readTrack: Reader<TrackRecord> = (value, notes, at = '') => {
  const f = new Fields(value, 'a track', at, notes);
  return withUnreadable(
    { trackNumber: f.integer('trackNumber', 'required'), song: readSongSummary(value, notes, at) },
    f,
  );
};

/** Nulls last, so that unreadable values do not reorder the readable ones. */
const byNumber =
  <T>(key: (item: T) => number | null) =>
  (a: T, b: T) =>
    (key(a) ?? Number.POSITIVE_INFINITY) - (key(b) ?? Number.POSITIVE_INFINITY);

function sortedList<T>(
  list: RecordList<T> | null,
  compare: (a: T, b: T) => number,
): RecordList<T> | null {
  return list === null ? null : { items: [...list.items].sort(compare), dropped: list.dropped };
}

export const readAlbum: Reader<AlbumRecord> = (value, notes) => {
  const f = new Fields(value, 'an album', '', notes);
  return withUnreadable(
    {
      ...albumSummaryFields(f),
      tracks: sortedList(
        f.list('tracks', readTrack),
        byNumber((track) => track.trackNumber),
      ),
    },
    f,
  );
};

export const readStreamSnapshot: Reader<StreamSnapshotRecord> = (value, notes, at = '') => {
  const f = new Fields(value, 'a stream snapshot', at, notes);
  const date = f.date('date');
  if (date === null) throw new ShapeError('expected "date" to be a YYYY-MM-DD date that exists');
  return withUnreadable(
    {
      date,
      totalStreams: f.integer('totalStreams'),
      dailyStreams: f.integer('dailyStreams'),
      monthlyListeners: f.integer('monthlyListeners'),
    },
    f,
  );
};

/** `YYYY-MM-DD` days sort as text, without the cost of a locale-aware comparison. */
const byDate = (a: { date: string }, b: { date: string }) =>
  a.date < b.date ? -1 : a.date > b.date ? 1 : 0;

/** Histories are served oldest first whatever order the upstream used, one snapshot a day. */
export const readHistory: Reader<RecordList<StreamSnapshotRecord>> = (body, notes) => {
  const list = listOf(readStreamSnapshot)(body, notes);
  const byDay = new Map<string, StreamSnapshotRecord>();
  for (const snapshot of list.items) {
    if (byDay.has(snapshot.date))
      notes.add('', 'date', snapshot.date, 'the same day twice: the first is kept');
    else byDay.set(snapshot.date, snapshot);
  }
  return {
    items: [...byDay.values()].sort(byDate),
    dropped: list.dropped,
  };
};

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
    if (draft.id !== null) return { ...draft, id: draft.id, idDerived: false };
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
    return { ...draft, id: `derived:${content}${count > 1 ? `#${count}` : ''}`, idDerived: true };
  });
}

/** A page of recent milestones. */
export const readMilestonePage: Reader<Page<MilestoneRecord>> = (body, notes) => {
  const page = pageOf(readMilestoneOf(null))(body, notes);
  return { ...page, items: withDerivedIds(page.items) };
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

const readChartEntry: Reader<ChartEntryRecord> = (value, notes, at = '') => {
  const f = new Fields(value, 'a chart entry', at, notes);
  const trend = f.oneOf('trend', CHART_TRENDS, upper, 'required');
  return withUnreadable(
    {
      position: f.integer('position', 'required'),
      songTitle: f.string('songTitle', 'required'),
      artistName: f.string('artistName', 'required'),
      peakPosition: f.integer('peakPosition', 'required'),
      weeksOnChart: f.integer('weeksOnChart', 'required'),
      trend,
      delta: f.integer('delta', 'required'),
      // A NEW entry had no rank last week, whatever the body says.
      prevRank: trend === 'NEW' ? null : f.integer('prevRank'),
    },
    f,
  );
};

export const readChart: Reader<ChartRecord> = (value, notes) => {
  const f = new Fields(value, 'a chart', '', notes);
  const entries = f.list('data', readChartEntry);
  if (entries === null || f.unreadable?.data !== undefined)
    throw new ShapeError('expected "data" to be a list');
  const meta = f.raw('meta');
  const total =
    meta === undefined || meta === null
      ? null
      : new Fields(meta, '"meta"', 'meta', notes).integer('total');
  if (total === null) f.invalid('total', meta, '"meta.total" is missing or unreadable');
  return withUnreadable(
    {
      chartName: f.identity('chartName'),
      chartTerritory: f.identity('chartTerritory'),
      chartWeek: requiredDay(f, 'chartWeek'),
      total,
      entries: {
        items: [...entries.items].sort(byNumber((entry) => entry.position)),
        dropped: entries.dropped,
      },
    },
    f,
  );
};

function requiredDay(f: Fields, key: string): string {
  const day = f.date(key);
  if (day === null) throw new ShapeError(`expected "${key}" to be a YYYY-MM-DD date that exists`);
  return day;
}

export const readChartSummary: Reader<ChartSummaryRecord> = (value, notes, at = '') => {
  const f = new Fields(value, 'a chart summary', at, notes);
  return withUnreadable(
    {
      chartName: f.identity('chartName'),
      chartTerritory: f.identity('chartTerritory'),
      latestWeek: f.date('latestWeek'),
      totalEntries: f.integer('totalEntries'),
    },
    f,
  );
};
