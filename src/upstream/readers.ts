/**
 * Tolerant readers: the only code that looks inside upstream JSON.
 *
 * The upstream documents few of its bodies (upstream-api.md, Part 2), so every
 * reader follows the policy of `reading.ts`: unknown fields are ignored,
 * unambiguous variations are accepted and noted, absent fields are null,
 * unreadable ones are named in the record's `unreadable`, and a record
 * without the fields that identify it is left out of its list. Nothing is
 * invented.
 *
 * The readers of each family of records live in `readers-<family>.ts` (what
 * they share, in `readers-common.ts`); this module is their one entrance.
 */

export { readAlbum, readAlbumSummary } from './readers-albums.js';
export { readArtistProfile, readArtistSummary } from './readers-artists.js';
export { readChart, readChartSummary } from './readers-charts.js';
export { listOf, pageOf } from './readers-common.js';
export { readHistory, readStreamSnapshot } from './readers-history.js';
export { readMilestoneFact, readMilestonePage, readTimeline } from './readers-milestones.js';
export {
  readRankedArtists,
  readRankedSongs,
  readTierArtist,
  readTierSong,
} from './readers-rankings.js';
export { readSong, readSongSummary, readSongsOf } from './readers-songs.js';
export { type Reader, ShapeError } from './reading.js';
