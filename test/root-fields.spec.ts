/** Every root field of the contract, against the simulator, compared with the simulator's own data. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const data = () => stack.simulator.data;

async function ok(query: string, variables?: Record<string, unknown>) {
  const response = await stack.query(query, variables);
  expect(response.body.errors).toBeUndefined();
  expect(response.status).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: the assertions below walk each root field's own response shape.
  return response.body.data as Record<string, any>;
}

describe('root fields', () => {
  it('artist(slug) returns the profile with counts above 2^31 exactly', async () => {
    const top = data().allArtists()[0]!;
    const profile = data().artistBySlug(top.slug)!;
    const { artist } = await ok(
      `query ($slug: String!) { artist(slug: $slug) { slug name country isAfrobeats totalStreams dailyStreams monthlyListeners followers imageUrl
        awards { name category year won } chartPositions { chart { name territory } week position peakPosition weeksOnChart } topSongs { slug title totalStreams } } }`,
      { slug: top.slug },
    );
    expect(profile.totalStreams).toBeGreaterThan(2 ** 31);
    expect(artist).toEqual({
      slug: profile.slug,
      name: profile.name,
      country: profile.country,
      isAfrobeats: profile.isAfrobeats,
      totalStreams: profile.totalStreams,
      dailyStreams: profile.dailyStreams,
      monthlyListeners: profile.monthlyListeners,
      followers: profile.followers,
      imageUrl: profile.imageUrl,
      awards: profile.awards.map((a) => ({
        name: a.name,
        category: a.category,
        year: a.year,
        won: a.result === 'won',
      })),
      chartPositions: profile.charts.map((c) => ({
        chart: { name: c.chartName, territory: c.chartTerritory },
        week: c.chartWeek,
        position: c.position,
        peakPosition: c.peakPosition,
        weeksOnChart: c.weeksOnChart,
      })),
      topSongs: profile.topSongs.map((s) => ({
        slug: s.slug,
        title: s.title,
        totalStreams: s.totalStreams,
      })),
    });
  });

  it('artists() browses with filters mapped to the upstream query', async () => {
    const expected = data().artists({ page: 1, limit: 100, country: 'NG', sortBy: 'name' });
    const { artists } = await ok(
      '{ artists(first: 5, country: "ng", sortBy: NAME) { totalCount nodes { slug name country } } }',
    );
    expect(artists.totalCount).toBe(expected.meta.total);
    expect(artists.nodes).toEqual(
      expected.data.slice(0, 5).map((a) => ({ slug: a.slug, name: a.name, country: 'NG' })),
    );
    const call = stack.simulator.calls.at(-1)!;
    expect(call.query).toMatchObject({ country: 'NG', sortBy: 'name', limit: '100', page: '1' });
  });

  it('song(slug), its artist, album and history', async () => {
    const songSlug = data().allArtists()[0]!.slug;
    const song = data()
      .songsOfArtist(songSlug)!
      .find((s) => s.albumSlug !== null)!;
    const record = data().songBySlug(song.slug)!;
    const history = data().songHistory(song.slug)!;
    const result = await ok(
      `query ($slug: String!) { song(slug: $slug) { slug title durationMs releaseDate totalStreams
        artist { slug name } album { slug title } featuredArtists { slug name } history { date totalStreams dailyStreams monthlyListeners } } }`,
      { slug: song.slug },
    );
    expect(result.song).toEqual({
      slug: record.slug,
      title: record.title,
      durationMs: record.durationMs,
      releaseDate: record.releaseDate,
      totalStreams: record.totalStreams,
      artist: { slug: record.artistSlug, name: record.artistName },
      album: { slug: record.albumSlug, title: data().albumBySlug(record.albumSlug!)!.title },
      featuredArtists: record.featuredArtists.map((a) => ({ slug: a.slug, name: a.name })),
      history: history.map((h) => ({ ...h, monthlyListeners: null })),
    });
  });

  it('searchSongs(title, artistName)', async () => {
    const song = data().songsOfArtist(data().allArtists()[3]!.slug)![0]!;
    const { searchSongs } = await ok(
      'query ($t: String!, $a: String!) { searchSongs(title: $t, artistName: $a) { slug title } }',
      { t: song.title, a: song.artistName },
    );
    expect(searchSongs).toEqual(
      data()
        .searchSongs(song.title, song.artistName)
        .map((s) => ({ slug: s.slug, title: s.title })),
    );
    expect(searchSongs).toContainEqual({ slug: song.slug, title: song.title });
  });

  it('album(slug) with its tracks in order, and albums()', async () => {
    const summary = data().albums({ page: 1, limit: 100, albumType: 'album' }).data[0]!;
    const album = data().albumBySlug(summary.slug)!;
    const result = await ok(
      `query ($slug: String!) { album(slug: $slug) { slug title albumType trackCount totalStreams artist { slug }
        tracks { trackNumber song { slug title } } } albums(first: 3, albumType: ALBUM) { totalCount nodes { slug albumType } } }`,
      { slug: album.slug },
    );
    expect(result.album).toEqual({
      slug: album.slug,
      title: album.title,
      albumType: 'ALBUM',
      trackCount: album.trackCount,
      totalStreams: album.totalStreams,
      artist: { slug: album.artistSlug },
      tracks: album.tracks.map((t) => ({
        trackNumber: t.trackNumber,
        song: { slug: t.slug, title: t.title },
      })),
    });
    const expectedAlbums = data().albums({ page: 1, limit: 100, albumType: 'album' });
    expect(result.albums.totalCount).toBe(expectedAlbums.meta.total);
    expect(result.albums.nodes).toEqual(
      expectedAlbums.data.slice(0, 3).map((a) => ({ slug: a.slug, albumType: 'ALBUM' })),
    );
  });

  it('recentMilestones, artistsByTier and songsByTier map tiers to upstream values', async () => {
    const result = await ok(`{
      recentMilestones(first: 3) { totalCount nodes { id metric platform threshold crossedAt artist { slug name } } }
      artistsByTier(tier: T1B, first: 2) { totalCount edges { crossedAt node { slug } } }
      songsByTier(tier: T100M, first: 2) { totalCount edges { crossedAt node { slug } } }
    }`);
    const recent = data().recentMilestones({ page: 1, limit: 100 });
    expect(result.recentMilestones.totalCount).toBe(recent.meta.total);
    expect(result.recentMilestones.nodes).toEqual(
      recent.data.slice(0, 3).map((m) => ({
        id: m.id,
        metric: m.metric,
        platform: m.metric.replace(/_streams$/, ''),
        threshold: m.threshold,
        crossedAt: m.crossedAt,
        artist: { slug: m.artistSlug, name: m.artistName },
      })),
    );
    const tierArtists = data().milestonesByArtistTier('1b', { page: 1, limit: 100 })!;
    expect(result.artistsByTier.totalCount).toBe(tierArtists.meta.total);
    expect(result.artistsByTier.edges).toEqual(
      tierArtists.data.slice(0, 2).map((a) => ({ crossedAt: a.crossedAt, node: { slug: a.slug } })),
    );
    const tierSongs = data().milestonesBySongTier('100m', { page: 1, limit: 100 })!;
    expect(result.songsByTier.totalCount).toBe(tierSongs.meta.total);
    expect(result.songsByTier.edges).toEqual(
      tierSongs.data.slice(0, 2).map((s) => ({ crossedAt: s.crossedAt, node: { slug: s.slug } })),
    );
    const paths = stack.simulator.calls
      .slice(-3)
      .map((c) => c.segments.join('/'))
      .sort();
    expect(paths).toEqual([
      'api/v1/milestones/artists/1b',
      'api/v1/milestones/recent',
      'api/v1/milestones/songs/100m',
    ]);
  });

  it('leaderboards and trending lists, sliced to limit', async () => {
    const result = await ok(`{
      topArtistsByStreams(limit: 3) { rank artist { slug totalStreams } }
      topArtistsByListeners(limit: 2, isAfrobeats: true) { rank artist { slug monthlyListeners } }
      topSongs(limit: 2) { rank song { slug totalStreams } }
      trendingArtists(limit: 2) { rank momentumScore artist { slug } }
      trendingSongs(limit: 2) { rank momentumScore song { slug } }
    }`);
    expect(result.topArtistsByStreams).toEqual(
      data()
        .leaderboardStreams({ limit: 3 })
        .map((a) => ({ rank: a.rank, artist: { slug: a.slug, totalStreams: a.totalStreams } })),
    );
    expect(result.topArtistsByListeners).toEqual(
      data()
        .leaderboardListeners({ limit: 2, isAfrobeats: true })
        .map((a) => ({
          rank: a.rank,
          artist: { slug: a.slug, monthlyListeners: a.monthlyListeners },
        })),
    );
    expect(result.topSongs).toEqual(
      data()
        .leaderboardSongs({ limit: 2 })
        .map((s) => ({ rank: s.rank, song: { slug: s.slug, totalStreams: s.totalStreams } })),
    );
    expect(result.trendingArtists).toEqual(
      data()
        .trendingArtists({ limit: 2 })
        .map((a) => ({ rank: a.rank, momentumScore: a.momentumScore, artist: { slug: a.slug } })),
    );
    expect(result.trendingSongs).toEqual(
      data()
        .trendingSongs({ limit: 2 })
        .map((s) => ({ rank: s.rank, momentumScore: s.momentumScore, song: { slug: s.slug } })),
    );
  });

  it('charts and chart(name, territory, limit) with trends and previous positions', async () => {
    const result = await ok(`{
      charts { name territory latestWeek totalEntries }
      chart(name: "spotify_daily_ng", territory: "NG", limit: 10) { name territory week totalEntries
        entries { position songTitle artistName peakPosition weeksOnChart trend delta previousPosition } }
    }`);
    expect(result.charts).toEqual(
      data()
        .charts()
        .map((c) => ({
          name: c.chartName,
          territory: c.chartTerritory,
          latestWeek: c.latestWeek,
          totalEntries: c.totalEntries,
        })),
    );
    const chart = data().chart('spotify_daily_ng', 'NG')!;
    expect(result.chart).toEqual({
      name: chart.chartName,
      territory: chart.chartTerritory,
      week: chart.chartWeek,
      totalEntries: chart.meta.total,
      entries: chart.data.slice(0, 10).map((e) => ({
        position: e.position,
        songTitle: e.songTitle,
        artistName: e.artistName,
        peakPosition: e.peakPosition,
        weeksOnChart: e.weeksOnChart,
        trend: e.trend,
        delta: e.delta,
        previousPosition: e.trend === 'NEW' ? null : e.prevRank,
      })),
    });
  });

  it('node(id) and nodes(ids) refetch artists, songs and albums by global id', async () => {
    const artist = data().allArtists()[1]!;
    const song = data().songsOfArtist(artist.slug)![0]!;
    const album = data().albumsOfArtist(artist.slug)![0]!;
    const ids = await ok(
      `query ($a: String!, $s: String!, $b: String!) { artist(slug: $a) { id } song(slug: $s) { id } album(slug: $b) { id } }`,
      { a: artist.slug, s: song.slug, b: album.slug },
    );
    const result = await ok(
      `query ($artist: ID!, $ids: [ID!]!) {
        node(id: $artist) { __typename id ... on Artist { slug } }
        nodes(ids: $ids) { __typename ... on Song { slug } ... on Album { slug } }
      }`,
      { artist: ids.artist.id, ids: [ids.song.id, ids.album.id] },
    );
    expect(result.node).toEqual({ __typename: 'Artist', id: ids.artist.id, slug: artist.slug });
    expect(result.nodes).toEqual([
      { __typename: 'Song', slug: song.slug },
      { __typename: 'Album', slug: album.slug },
    ]);
  });

  it('refuses malformed global ids and ids of other types as BAD_USER_INPUT, without an upstream call', async () => {
    const before = stack.upstreamCalls();
    const ids = [
      'garbage',
      Buffer.from('Foo:x').toString('base64'),
      Buffer.from('Milestone:x').toString('base64'),
    ];
    for (const id of ids) {
      const response = await stack.query('query ($id: ID!) { node(id: $id) { id } }', { id });
      expect(response.body.data).toEqual({ node: null });
      expect(response.body.errors?.[0]).toMatchObject({
        path: ['node'],
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    expect(stack.upstreamCalls()).toBe(before);
  });

  it('Artist fields that need their own endpoints: songs, history, milestones, facts', async () => {
    const artist = data().allArtists()[0]!;
    const result = await ok(
      `query ($slug: String!) { artist(slug: $slug) {
        songs(first: 2) { totalCount nodes { slug } }
        history { date totalStreams dailyStreams monthlyListeners }
        milestones { id threshold crossedAt song { title } }
        streamMilestone(threshold: 1000000000) { metric threshold reached crossedAt currentValue text }
        listenerMilestone(threshold: 1000000000000) { metric reached crossedAt }
      } }`,
      { slug: artist.slug },
    );
    const songs = data().songsOfArtist(artist.slug)!;
    const fact = data().artistStreamsFact(artist.slug, 1_000_000_000)!;
    expect(result.artist.songs).toEqual({
      totalCount: songs.length,
      nodes: songs.slice(0, 2).map((s) => ({ slug: s.slug })),
    });
    expect(result.artist.history).toHaveLength(90);
    expect(result.artist.history).toEqual(data().artistHistory(artist.slug));
    expect(result.artist.milestones).toEqual(
      data()
        .milestoneTimeline(artist.slug)!
        .map((m) => ({
          id: m.id,
          threshold: m.threshold,
          crossedAt: m.crossedAt,
          song: m.songTitle === null ? null : { title: m.songTitle },
        })),
    );
    expect(result.artist.streamMilestone).toEqual({
      metric: fact.metric,
      threshold: fact.threshold,
      reached: fact.reached,
      crossedAt: fact.crossedAt,
      currentValue: fact.currentValue,
      text: fact.text,
    });
    expect(result.artist.listenerMilestone).toEqual({
      metric: 'monthly_listeners',
      reached: false,
      crossedAt: null,
    });
  });

  it('apiUsage answers from the gateway count, without an upstream call', async () => {
    const before = stack.upstreamCalls();
    const { apiUsage } = await ok('{ apiUsage { dailyLimit used remaining resetsAt } }');
    expect(stack.upstreamCalls()).toBe(before);
    expect(apiUsage.dailyLimit).toBe(1000);
    expect(apiUsage.used).toBe(before);
    expect(apiUsage.remaining).toBe(1000 - before);
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(apiUsage.resetsAt).toBe(midnight.toISOString());
  });
});
