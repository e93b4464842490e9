// Issue 12's four warm reference queries: ours (copied from
// bench/reference-queries.ts, WARM_REFERENCE_QUERIES) and the same
// questions asked of the peer's schema (Hive Gateway over the Mesh OpenAPI
// source). Aliases make the peer's answers use our field names where the shape
// allows it; `normalize` maps both answers to one shape so they can be compared.

export const QUERIES = [
  {
    key: 'typename',
    name: '{ __typename }',
    goal: { text: 'ahead (>1x)', min: 1 },
    issuePeer: '3,258–4,207',
    ours: () => ({ query: '{ __typename }' }),
    peer: () => ({ query: '{ __typename }' }),
    normalize: { ours: (d) => d, peer: (d) => d },
  },
  {
    key: 'artist',
    name: 'one artist, two fields',
    goal: { text: '≥5x', min: 5 },
    issuePeer: '1,169–1,365',
    ours: (slug) => ({
      query: 'query Artist($slug: String!) { artist(slug: $slug) { name monthlyListeners } }',
      variables: { slug },
    }),
    peer: (slug) => ({
      query: 'query Artist($slug: String!) { artist(slug: $slug) { name monthlyListeners } }',
      variables: { slug },
    }),
    normalize: { ours: (d) => d, peer: (d) => d },
  },
  {
    key: 'top20',
    name: 'top 20 artists with 90-day history',
    goal: { text: '≥30x', min: 30 },
    issuePeer: '31–35',
    ours: () => ({
      query:
        '{ topArtistsByStreams(limit: 20) { rank artist { slug name history { date dailyStreams totalStreams monthlyListeners } } } }',
    }),
    // The leaderboard item is the artist (flat); `history` is the field added
    // with additionalTypeDefs + @resolveTo (one /artists/{slug}/history call per item).
    peer: () => ({
      query:
        '{ topArtistsByStreams: leaderboardStreams(limit: 20) { rank slug name history { date dailyStreams totalStreams monthlyListeners } } }',
    }),
    normalize: {
      ours: (d) => ({
        top: d.topArtistsByStreams.map((e) => ({
          rank: e.rank,
          slug: e.artist.slug,
          name: e.artist.name,
          history: e.artist.history,
        })),
      }),
      peer: (d) => ({
        top: d.topArtistsByStreams.map((e) => ({
          rank: e.rank,
          slug: e.slug,
          name: e.name,
          history: e.history,
        })),
      }),
    },
  },
  {
    key: 'chart',
    name: 'a chart of 50 entries',
    goal: { text: '≥5x', min: 5 },
    issuePeer: '451–600',
    ours: () => ({
      query:
        '{ chart(name: "spotify_daily_ng", territory: "NG", limit: 50) { entries { position previousPosition peakPosition weeksOnChart delta trend songTitle artistName } } }',
    }),
    peer: () => ({
      query:
        '{ chart(chartName: "spotify_daily_ng", territory: "NG", limit: 50) { entries: data { position previousPosition: prevRank peakPosition weeksOnChart delta trend songTitle artistName } } }',
    }),
    normalize: { ours: (d) => d, peer: (d) => d },
  },
];
