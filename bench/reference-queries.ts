/**
 * The reference queries: those of the upstream-economy work (the call-count
 * test asserts their exact upstream calls, the benchmark prints them) and
 * those of the speed work (issue 12), measured warm against a bare server and
 * cold in upstream round trips.
 */
export interface ReferenceQuery {
  readonly name: string;
  readonly query: string;
  /** Most references need one real artist slug; the caller supplies it. */
  readonly variables?: (artistSlug: string) => Record<string, unknown>;
}

export const ARTIST_PAGE_QUERY = `query ArtistPage($slug: String!) { artist(slug: $slug) {
  name followers monthlyListeners awards { name won } chartPositions { position chart { name territory } }
  topSongs { title totalStreams } songs(first: 20) { totalCount nodes { title } }
  history { date dailyStreams } milestones { threshold crossedAt song { title } } } }`;

export const REFERENCE_QUERIES: readonly ReferenceQuery[] = [
  {
    name: 'artist page: profile, awards, chart positions, top songs, songs, history, milestones',
    query: ARTIST_PAGE_QUERY,
    variables: (slug) => ({ slug }),
  },
  {
    name: 'top 50 artists by streams, names only',
    query: '{ topArtistsByStreams(limit: 50) { rank artist { name } } }',
  },
  {
    name: "top 50 artists by streams with each artist's monthlyListeners",
    query: '{ topArtistsByStreams(limit: 50) { rank artist { name monthlyListeners } } }',
  },
  {
    name: "top 50 artists by streams with each artist's followers",
    query: '{ topArtistsByStreams(limit: 50) { rank artist { name followers } } }',
  },
  {
    name: "top 20 songs with each song's artist name",
    query: '{ topSongs(limit: 20) { rank song { title artist { slug name } } } }',
  },
  {
    name: 'recent milestones with artist names',
    query: '{ recentMilestones(first: 50) { nodes { threshold artist { name } song { title } } } }',
  },
  {
    name: "recent milestones with each artist's awards",
    query:
      '{ recentMilestones(first: 50) { nodes { threshold artist { name awards { name } } } } }',
  },
  {
    name: 'a chart of 50 entries without song',
    query:
      '{ chart(name: "spotify_daily_ng", territory: "NG", limit: 50) { entries { position songTitle trend } } }',
  },
  {
    name: 'a chart of 50 entries with song',
    query:
      '{ chart(name: "spotify_daily_ng", territory: "NG", limit: 50) { entries { position song { slug totalStreams } } } }',
  },
];

/** A page-sized query: the top 20 artists with 90 days of history each (about 178 KB of answer). */
export const TOP_20_WITH_HISTORY_QUERY =
  '{ topArtistsByStreams(limit: 20) { rank artist { slug name history { date dailyStreams totalStreams monthlyListeners } } } }';

/** Issue 12's warm references, each measured against a bare server sending the same bytes. */
export const WARM_REFERENCE_QUERIES: readonly ReferenceQuery[] = [
  { name: '{ __typename }', query: '{ __typename }' },
  {
    name: 'one artist, two fields',
    query: 'query Artist($slug: String!) { artist(slug: $slug) { name monthlyListeners } }',
    variables: (slug) => ({ slug }),
  },
  { name: 'top 20 artists with 90-day history', query: TOP_20_WITH_HISTORY_QUERY },
  {
    name: 'a chart of 50 entries',
    query:
      '{ chart(name: "spotify_daily_ng", territory: "NG", limit: 50) { entries { position previousPosition peakPosition weeksOnChart delta trend songTitle artistName } } }',
  },
];

/** Issue 12's cold references, measured in upstream round trips on a fresh gateway. */
export const COLD_REFERENCE_QUERIES: readonly ReferenceQuery[] = [
  { name: 'artist page (nested)', query: ARTIST_PAGE_QUERY, variables: (slug) => ({ slug }) },
  { name: 'top 20 artists with 90-day history', query: TOP_20_WITH_HISTORY_QUERY },
];
