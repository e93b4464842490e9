/**
 * The GraphQL request of each kind of page view, modelled on the example
 * app's operations (examples/operations/), and the upstream records each one
 * reads (what the clairvoyant reference must hold to answer it in full).
 * On a cold gateway (checked by `extensions.cost.upstreamCalls`):
 * - home: the two home lists, 2 calls (leaderboard by streams, trending songs);
 * - artist page: 4 calls (profile with top songs, songs of the artist, history, milestone timeline);
 * - chart: 1 call (the UK Afrobeats chart's entries);
 * - recent milestones: 1 call, the very page the refresh poll reads (so usually none).
 * The example's artist page asks each top song's album title and defers the slow parts; here
 * the album is left out (one call per album) and nothing is deferred: one JSON answer per view.
 */
import type { View } from './traffic.js';

const HOME = `query Home {
  topArtistsByStreams(limit: 10) { rank artist { slug name country imageUrl totalStreams monthlyListeners } }
  trendingSongs(limit: 10) { rank momentumScore song { slug title totalStreams dailyStreams artist { slug name } } }
}`;

const ARTIST = `query ArtistPage($slug: String!) {
  artist(slug: $slug) {
    id slug name imageUrl country isAfrobeats totalStreams dailyStreams monthlyListeners followers
    awards { name category year won }
    chartPositions { chart { name territory } week position peakPosition weeksOnChart }
    topSongs { slug title releaseDate totalStreams dailyStreams }
    songs(first: 10) { totalCount nodes { slug title releaseDate totalStreams } pageInfo { hasNextPage endCursor } }
    history { date totalStreams dailyStreams monthlyListeners }
    milestones { id platform threshold crossedAt song { title } }
  }
}`;

const CHART = `query Chart {
  chart(name: "official_afrobeats_chart", territory: "UK", limit: 20) {
    name territory week totalEntries
    entries { position previousPosition trend delta peakPosition weeksOnChart songTitle artistName }
  }
}`;

const MILESTONES = `query RecentMilestones {
  recentMilestones(first: 20) {
    totalCount
    nodes { id platform threshold crossedAt streamValue artist { slug name } song { title } }
    pageInfo { hasNextPage endCursor }
  }
}`;

export interface PageRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown>;
}

export function requestOf(view: View): PageRequest {
  switch (view.kind) {
    case 'home':
      return { query: HOME };
    case 'artist':
      return { query: ARTIST, variables: { slug: view.slug } };
    case 'chart':
      return { query: CHART };
    case 'milestones':
      return { query: MILESTONES };
  }
}

/** The upstream records the view reads, one upstream call each when not held. */
export function recordsOf(view: View): readonly string[] {
  switch (view.kind) {
    case 'home':
      return ['leaderboard:streams', 'trending:songs'];
    case 'artist':
      return ['profile', 'songs', 'history', 'timeline'].map((part) => `${part}:${view.slug}`);
    case 'chart':
      return ['chart:official_afrobeats_chart:UK'];
    case 'milestones':
      return ['milestones:recent'];
  }
}
