/**
 * The reference queries of the upstream-economy work: the call-count test
 * asserts their exact upstream calls, the benchmark measures them.
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
    query: '{ recentMilestones(first: 50) { nodes { threshold artist { name awards { name } } } } }',
  },
  {
    name: 'a chart of 50 entries without song',
    query: '{ chart(name: "spotify_daily_ng", territory: "NG", limit: 50) { entries { position songTitle trend } } }',
  },
  {
    name: 'a chart of 50 entries with song',
    query: '{ chart(name: "spotify_daily_ng", territory: "NG", limit: 50) { entries { position song { slug totalStreams } } } }',
  },
];
