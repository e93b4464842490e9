/* eslint-disable */
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** A calendar day (UTC) as `YYYY-MM-DD`. */
  Date: { input: string; output: string; }
  /** An integer in [-(2^53-1), 2^53-1], sent as a JSON number. Stream counts exceed the 32-bit `Int`. */
  SafeInt: { input: number; output: number; }
  /** An absolute http(s) URL. */
  URL: { input: string; output: string; }
};

/** An album, single or EP, with its tracks. */
export type Album = Node & {
  __typename?: 'Album';
  /** Album, single or EP. */
  albumType?: Maybe<AlbumType>;
  /** The main artist. */
  artist: Artist;
  /** Streams of all tracks on the latest day. */
  dailyStreams?: Maybe<Scalars['SafeInt']['output']>;
  /** Opaque Relay global id; `node(id:)` refetches the object. */
  id: Scalars['ID']['output'];
  /** Cover art. */
  imageUrl?: Maybe<Scalars['URL']['output']>;
  /** Whether the release is flagged Afrobeats. */
  isAfrobeats?: Maybe<Scalars['Boolean']['output']>;
  /** Release day. */
  releaseDate?: Maybe<Scalars['Date']['output']>;
  /** Stable identifier used in upstream URLs. */
  slug: Scalars['String']['output'];
  /** Title of the release. */
  title: Scalars['String']['output'];
  /** All-time streams of all tracks. */
  totalStreams?: Maybe<Scalars['SafeInt']['output']>;
  /** Number of tracks. */
  trackCount?: Maybe<Scalars['Int']['output']>;
  /** Tracks in order (needs the full album record); null when the upstream lists none. */
  tracks?: Maybe<Array<Track>>;
};

/** A page of albums. */
export type AlbumConnection = {
  __typename?: 'AlbumConnection';
  /** The items of this page, each with its cursor. */
  edges: Array<AlbumEdge>;
  /** The nodes of the edges, for clients that do not need cursors. */
  nodes: Array<Album>;
  /** Where this page sits in the whole list. */
  pageInfo: PageInfo;
  /** Number of albums matching the filters (upstream `meta.total`). */
  totalCount: Scalars['Int']['output'];
};

/** An album in a page of albums. */
export type AlbumEdge = {
  __typename?: 'AlbumEdge';
  /** Opaque cursor of this edge, for `after`/`before`. */
  cursor: Scalars['String']['output'];
  /** The item at this edge. */
  node: Album;
};

/** Orders for browsing albums. */
export type AlbumSort =
  /** By streams on the latest day, most first. */
  | 'DAILY_STREAMS'
  /** By release date, newest first. */
  | 'RELEASE_DATE'
  /** By all-time streams, most first. */
  | 'TOTAL_STREAMS';

/** Kind of release. */
export type AlbumType =
  /** A full-length album. */
  | 'ALBUM'
  /** An extended play. */
  | 'EP'
  /** A single. */
  | 'SINGLE';

/** Today's upstream budget of the API key in use (the gateway's own key, or the client's in pass-through mode). */
export type ApiUsage = {
  __typename?: 'ApiUsage';
  /** Upstream requests allowed per UTC day. */
  dailyLimit: Scalars['Int']['output'];
  /** Upstream requests left today (0 once the upstream has answered 429). */
  remaining: Scalars['Int']['output'];
  /** ISO 8601 instant of the next reset: midnight UTC. */
  resetsAt: Scalars['String']['output'];
  /** Upstream requests made with this key since midnight UTC. */
  used: Scalars['Int']['output'];
};

/** A recording artist, with streaming totals, awards, chart positions, songs and milestones. */
export type Artist = Node & {
  __typename?: 'Artist';
  /** Awards won and nominations; null when the profile lists none. */
  awards?: Maybe<Array<Award>>;
  /** The artist's current positions on the weekly charts; null when the profile lists none. */
  chartPositions?: Maybe<Array<ArtistChartPosition>>;
  /** ISO 3166-1 alpha-2 country code (`UK` for the United Kingdom). */
  country?: Maybe<Scalars['String']['output']>;
  /** Streams on the latest day. */
  dailyStreams?: Maybe<Scalars['SafeInt']['output']>;
  /** Followers across platforms (needs the full profile). */
  followers?: Maybe<Scalars['SafeInt']['output']>;
  /** Daily snapshots of the last 90 days, oldest first. */
  history?: Maybe<Array<StreamSnapshot>>;
  /** Opaque Relay global id; `node(id:)` refetches the object. */
  id: Scalars['ID']['output'];
  /** Portrait image. */
  imageUrl?: Maybe<Scalars['URL']['output']>;
  /** Whether the artist is flagged Afrobeats; null when the upstream does not say. */
  isAfrobeats?: Maybe<Scalars['Boolean']['output']>;
  /** Whether the artist has reached `threshold` monthly listeners, and when. */
  listenerMilestone?: Maybe<MilestoneFact>;
  /** The artist's milestone timeline (artist and song thresholds crossed), oldest first. */
  milestones?: Maybe<Array<Milestone>>;
  /** Listeners over the last 28 days. */
  monthlyListeners?: Maybe<Scalars['SafeInt']['output']>;
  /** Display name. */
  name: Scalars['String']['output'];
  /** Stable identifier used in upstream URLs, e.g. `burna-boy`. */
  slug: Scalars['String']['output'];
  /** All songs of the artist, most-streamed first. */
  songs?: Maybe<SongConnection>;
  /** Whether the artist has reached `threshold` all-time streams, and when. */
  streamMilestone?: Maybe<MilestoneFact>;
  /** Up to 10 most-streamed songs, most first; null when the profile lists none. */
  topSongs?: Maybe<Array<Song>>;
  /** All-time streams across platforms. */
  totalStreams?: Maybe<Scalars['SafeInt']['output']>;
};


/** A recording artist, with streaming totals, awards, chart positions, songs and milestones. */
export type ArtistListenerMilestoneArgs = {
  threshold: Scalars['SafeInt']['input'];
};


/** A recording artist, with streaming totals, awards, chart positions, songs and milestones. */
export type ArtistSongsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


/** A recording artist, with streaming totals, awards, chart positions, songs and milestones. */
export type ArtistStreamMilestoneArgs = {
  threshold: Scalars['SafeInt']['input'];
};

/** An artist's current place on one chart. */
export type ArtistChartPosition = {
  __typename?: 'ArtistChartPosition';
  /** The chart. */
  chart: ChartSummary;
  /** Best position reached. */
  peakPosition?: Maybe<Scalars['Int']['output']>;
  /** Current position, from 1. */
  position: Scalars['Int']['output'];
  /** Week of the chart edition. */
  week?: Maybe<Scalars['Date']['output']>;
  /** Weeks spent on the chart. */
  weeksOnChart?: Maybe<Scalars['Int']['output']>;
};

/** A page of artists. */
export type ArtistConnection = {
  __typename?: 'ArtistConnection';
  /** The items of this page, each with its cursor. */
  edges: Array<ArtistEdge>;
  /** The nodes of the edges, for clients that do not need cursors. */
  nodes: Array<Artist>;
  /** Where this page sits in the whole list. */
  pageInfo: PageInfo;
  /** Number of artists matching the filters (upstream `meta.total`). */
  totalCount: Scalars['Int']['output'];
};

/** An artist in a page of artists. */
export type ArtistEdge = {
  __typename?: 'ArtistEdge';
  /** Opaque cursor of this edge, for `after`/`before`. */
  cursor: Scalars['String']['output'];
  /** The item at this edge. */
  node: Artist;
};

/** Orders for browsing artists. */
export type ArtistSort =
  /** By monthly listeners, most first. */
  | 'MONTHLY_LISTENERS'
  /** By name, A to Z. */
  | 'NAME'
  /** By all-time streams, most first (the upstream default). */
  | 'TOTAL_STREAMS';

/** All-time stream thresholds tracked for artists. */
export type ArtistTier =
  /** 1 billion streams. */
  | 'T1B'
  /** 2 billion streams. */
  | 'T2B'
  /** 5 billion streams. */
  | 'T5B'
  /** 10 billion streams. */
  | 'T10B'
  /** 15 billion streams. */
  | 'T15B'
  /** 20 billion streams. */
  | 'T20B'
  /** 100 million streams. */
  | 'T100M'
  /** 500 million streams. */
  | 'T500M';

/** An award or nomination of an artist. */
export type Award = {
  __typename?: 'Award';
  /** Category, e.g. "Best Global Music Album". */
  category?: Maybe<Scalars['String']['output']>;
  /** Name of the award, e.g. "Grammy Award". */
  name: Scalars['String']['output'];
  /** True when won, false when only nominated; null when the upstream does not say. */
  won?: Maybe<Scalars['Boolean']['output']>;
  /** Year of the ceremony. */
  year?: Maybe<Scalars['Int']['output']>;
};

/** The latest edition of a weekly chart. */
export type Chart = {
  __typename?: 'Chart';
  /** Entries by position; entries the upstream sent unreadable are left out and listed in `extensions.warnings`. */
  entries: Array<ChartEntry>;
  /** Chart identifier. */
  name: Scalars['String']['output'];
  /** Territory code. */
  territory: Scalars['String']['output'];
  /** Entries in the whole chart, whatever `limit` was. */
  totalEntries: Scalars['Int']['output'];
  /** Week of this edition. */
  week: Scalars['Date']['output'];
};

/** A song at its position on a chart. */
export type ChartEntry = {
  __typename?: 'ChartEntry';
  /** Artist as the chart prints it. */
  artistName: Scalars['String']['output'];
  /** Places gained since last week (negative when down). */
  delta: Scalars['Int']['output'];
  /** Best position reached. */
  peakPosition: Scalars['Int']['output'];
  /** Position this week, from 1. */
  position: Scalars['Int']['output'];
  /** Position last week; null for a NEW entry. */
  previousPosition?: Maybe<Scalars['Int']['output']>;
  /** The song, found by title and artist name (one search per entry, only when selected); null when no song matches. */
  song?: Maybe<Song>;
  /** Title as the chart prints it. */
  songTitle: Scalars['String']['output'];
  /** Movement since last week's chart. */
  trend: ChartTrend;
  /** Weeks spent on the chart. */
  weeksOnChart: Scalars['Int']['output'];
};

/** A weekly chart that the upstream publishes. */
export type ChartSummary = {
  __typename?: 'ChartSummary';
  /** Week of the latest edition. */
  latestWeek?: Maybe<Scalars['Date']['output']>;
  /** Chart identifier, e.g. `official_afrobeats_chart`. */
  name: Scalars['String']['output'];
  /** Territory code, e.g. `UK` or `NG`. */
  territory: Scalars['String']['output'];
  /** Number of entries in the latest edition. */
  totalEntries?: Maybe<Scalars['Int']['output']>;
};

/** Movement of a chart entry since last week's chart. */
export type ChartTrend =
  /** Moved down since last week. */
  | 'DOWN'
  /** First appearance on the chart. */
  | 'NEW'
  /** Back on the chart after dropping off. */
  | 'RE'
  /** Same position as last week. */
  | 'SAME'
  /** Moved up since last week. */
  | 'UP';

/** The day an artist or one of their songs crossed a stream threshold on a platform. */
export type Milestone = {
  __typename?: 'Milestone';
  /** The artist (name, slug and image come with the milestone at no extra cost). */
  artist: Artist;
  /** Day it was crossed. */
  crossedAt: Scalars['Date']['output'];
  /** The upstream milestone id (compare it to poll for new milestones). When the upstream sends none, an id derived from the artist, song, metric, threshold and day (those the upstream sent), prefixed `derived:`. */
  id: Scalars['ID']['output'];
  /** Whether the artist is flagged Afrobeats. Null when the upstream did not say (an artist's timeline may leave it out). */
  isAfrobeats?: Maybe<Scalars['Boolean']['output']>;
  /** What was counted, `<platform>_streams`, e.g. `spotify_streams`. Null when the upstream did not say (an artist's timeline promises only the threshold and the day). */
  metric?: Maybe<Scalars['String']['output']>;
  /** The platform, i.e. the metric without `_streams`, e.g. `spotify`. Null when the metric is. */
  platform?: Maybe<Scalars['String']['output']>;
  /** The song, for a song milestone; null for an artist milestone. Its title comes at no extra cost. */
  song?: Maybe<Song>;
  /** Count observed when crossed. */
  streamValue?: Maybe<Scalars['SafeInt']['output']>;
  /** The threshold crossed, e.g. 1000000000. */
  threshold: Scalars['SafeInt']['output'];
};

/** A page of milestones. */
export type MilestoneConnection = {
  __typename?: 'MilestoneConnection';
  /** The items of this page, each with its cursor. */
  edges: Array<MilestoneEdge>;
  /** The nodes of the edges, for clients that do not need cursors. */
  nodes: Array<Milestone>;
  /** Where this page sits in the whole list. */
  pageInfo: PageInfo;
  /** Number of milestones (upstream `meta.total`). */
  totalCount: Scalars['Int']['output'];
};

/** A milestone in a page of milestones. */
export type MilestoneEdge = {
  __typename?: 'MilestoneEdge';
  /** Opaque cursor of this edge, for `after`/`before`. */
  cursor: Scalars['String']['output'];
  /** The item at this edge. */
  node: Milestone;
};

/** Whether an artist or song has crossed a given count, and when. */
export type MilestoneFact = {
  __typename?: 'MilestoneFact';
  /** Day it was crossed; null when not reached yet. */
  crossedAt?: Maybe<Scalars['Date']['output']>;
  /** The count now. */
  currentValue?: Maybe<Scalars['SafeInt']['output']>;
  /** What is counted, e.g. `spotify_streams` or `monthly_listeners`. */
  metric: Scalars['String']['output'];
  /** Whether the count has been reached; null when the upstream does not say. */
  reached?: Maybe<Scalars['Boolean']['output']>;
  /** A sentence stating the fact, ready to display. */
  text?: Maybe<Scalars['String']['output']>;
  /** The count asked about. */
  threshold: Scalars['SafeInt']['output'];
};

/** An object with a global id, refetchable with `node(id:)`. */
export type Node = {
  /** Opaque Relay global id; `node(id:)` refetches the object. */
  id: Scalars['ID']['output'];
};

/** Relay pagination state of a connection page. */
export type PageInfo = {
  __typename?: 'PageInfo';
  /** Cursor of the last edge of this page. */
  endCursor?: Maybe<Scalars['String']['output']>;
  /** Whether items follow this page. */
  hasNextPage: Scalars['Boolean']['output'];
  /** Whether items precede this page. */
  hasPreviousPage: Scalars['Boolean']['output'];
  /** Cursor of the first edge of this page. */
  startCursor?: Maybe<Scalars['String']['output']>;
};

/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type Query = {
  __typename?: 'Query';
  /** An album by slug; null with a NOT_FOUND error when there is none. */
  album?: Maybe<Album>;
  /** Browse albums, singles and EPs. */
  albums?: Maybe<AlbumConnection>;
  /** The caller's upstream budget, counted by the gateway: answering it costs no upstream call. */
  apiUsage: ApiUsage;
  /** An artist by slug; null with a NOT_FOUND error when there is none. */
  artist?: Maybe<Artist>;
  /** Browse artists, sorted by total streams unless `sortBy` says otherwise. */
  artists?: Maybe<ArtistConnection>;
  /** Artists whose all-time streams crossed `tier`, with the day each crossed it. */
  artistsByTier?: Maybe<TierArtistConnection>;
  /** The latest edition of a chart; null with a NOT_FOUND error when there is no such chart. */
  chart?: Maybe<Chart>;
  /** Every chart the upstream publishes, with its latest week. */
  charts?: Maybe<Array<ChartSummary>>;
  /** Fetches an Artist, Song or Album by its global id; null when it does not exist. */
  node?: Maybe<Node>;
  /** Fetches several objects by global id, in order; null for each that does not exist. */
  nodes: Array<Maybe<Node>>;
  /** Milestones crossed recently, newest first. Poll it (about hourly) and compare ids to spot new ones. */
  recentMilestones?: Maybe<MilestoneConnection>;
  /** Songs matching a title and an artist name (case-insensitive); empty when nothing matches. */
  searchSongs?: Maybe<Array<Song>>;
  /** A song by slug; null with a NOT_FOUND error when there is none. */
  song?: Maybe<Song>;
  /** Songs whose all-time streams crossed `tier`, with the day each crossed it. */
  songsByTier?: Maybe<TierSongConnection>;
  /** Artists with the most monthly listeners. */
  topArtistsByListeners?: Maybe<Array<RankedArtist>>;
  /** Artists with the most all-time streams. */
  topArtistsByStreams?: Maybe<Array<RankedArtist>>;
  /** Songs with the most all-time streams. */
  topSongs?: Maybe<Array<RankedSong>>;
  /** Artists by momentum score, hottest first. */
  trendingArtists?: Maybe<Array<TrendingArtist>>;
  /** Songs by momentum score, hottest first. */
  trendingSongs?: Maybe<Array<TrendingSong>>;
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QueryAlbumArgs = {
  slug: Scalars['String']['input'];
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QueryAlbumsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  albumType?: InputMaybe<AlbumType>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  isAfrobeats?: InputMaybe<Scalars['Boolean']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  sortBy?: InputMaybe<AlbumSort>;
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QueryArtistArgs = {
  slug: Scalars['String']['input'];
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QueryArtistsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  country?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  isAfrobeats?: InputMaybe<Scalars['Boolean']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  letter?: InputMaybe<Scalars['String']['input']>;
  search?: InputMaybe<Scalars['String']['input']>;
  sortBy?: InputMaybe<ArtistSort>;
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QueryArtistsByTierArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  isAfrobeats?: InputMaybe<Scalars['Boolean']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  tier: ArtistTier;
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QueryChartArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
  name: Scalars['String']['input'];
  territory: Scalars['String']['input'];
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QueryNodeArgs = {
  id: Scalars['ID']['input'];
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QueryNodesArgs = {
  ids: Array<Scalars['ID']['input']>;
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QueryRecentMilestonesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  isAfrobeats?: InputMaybe<Scalars['Boolean']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QuerySearchSongsArgs = {
  artistName: Scalars['String']['input'];
  title: Scalars['String']['input'];
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QuerySongArgs = {
  slug: Scalars['String']['input'];
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QuerySongsByTierArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  tier: SongTier;
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QueryTopArtistsByListenersArgs = {
  country?: InputMaybe<Scalars['String']['input']>;
  isAfrobeats?: InputMaybe<Scalars['Boolean']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QueryTopArtistsByStreamsArgs = {
  country?: InputMaybe<Scalars['String']['input']>;
  isAfrobeats?: InputMaybe<Scalars['Boolean']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QueryTopSongsArgs = {
  isAfrobeats?: InputMaybe<Scalars['Boolean']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QueryTrendingArtistsArgs = {
  country?: InputMaybe<Scalars['String']['input']>;
  isAfrobeats?: InputMaybe<Scalars['Boolean']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
};


/** Read-only music streaming statistics: artists, songs, albums, milestones, rankings and charts. */
export type QueryTrendingSongsArgs = {
  isAfrobeats?: InputMaybe<Scalars['Boolean']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
};

/** An artist at its rank on a leaderboard. */
export type RankedArtist = {
  __typename?: 'RankedArtist';
  /** The artist (summary fields cost nothing extra). */
  artist: Artist;
  /** Rank, from 1. */
  rank: Scalars['Int']['output'];
};

/** A song at its rank on a leaderboard. */
export type RankedSong = {
  __typename?: 'RankedSong';
  /** Rank, from 1. */
  rank: Scalars['Int']['output'];
  /** The song (summary fields cost nothing extra). */
  song: Song;
};

/** A song (a track), with its streaming totals, artist, album and history. */
export type Song = Node & {
  __typename?: 'Song';
  /** The album the song appears on; null for a song released on its own. */
  album?: Maybe<Album>;
  /** The main artist. */
  artist: Artist;
  /** Streams on the latest day. */
  dailyStreams?: Maybe<Scalars['SafeInt']['output']>;
  /** Length in milliseconds (needs the full song record). */
  durationMs?: Maybe<Scalars['Int']['output']>;
  /** Artists featured on the song (needs the full song record); null when the upstream does not say. */
  featuredArtists?: Maybe<Array<Artist>>;
  /** Daily snapshots, oldest first. */
  history?: Maybe<Array<StreamSnapshot>>;
  /** Opaque Relay global id; `node(id:)` refetches the object. */
  id: Scalars['ID']['output'];
  /** Cover art. */
  imageUrl?: Maybe<Scalars['URL']['output']>;
  /** Whether the song is flagged Afrobeats. */
  isAfrobeats?: Maybe<Scalars['Boolean']['output']>;
  /** Release day. */
  releaseDate?: Maybe<Scalars['Date']['output']>;
  /** Stable identifier used in upstream URLs, built from the artist slug and the title. */
  slug: Scalars['String']['output'];
  /** Whether the song has reached `threshold` all-time streams, and when. */
  streamMilestone?: Maybe<MilestoneFact>;
  /** Title of the song. */
  title: Scalars['String']['output'];
  /** All-time streams across platforms. */
  totalStreams?: Maybe<Scalars['SafeInt']['output']>;
};


/** A song (a track), with its streaming totals, artist, album and history. */
export type SongStreamMilestoneArgs = {
  threshold: Scalars['SafeInt']['input'];
};

/** A page of songs. */
export type SongConnection = {
  __typename?: 'SongConnection';
  /** The items of this page, each with its cursor. */
  edges: Array<SongEdge>;
  /** The nodes of the edges, for clients that do not need cursors. */
  nodes: Array<Song>;
  /** Where this page sits in the whole list. */
  pageInfo: PageInfo;
  /** Number of songs in the whole list. */
  totalCount: Scalars['Int']['output'];
};

/** A song in a page of songs. */
export type SongEdge = {
  __typename?: 'SongEdge';
  /** Opaque cursor of this edge, for `after`/`before`. */
  cursor: Scalars['String']['output'];
  /** The item at this edge. */
  node: Song;
};

/** All-time stream thresholds tracked for songs. */
export type SongTier =
  /** 1 billion streams. */
  | 'T1B'
  /** 2 billion streams. */
  | 'T2B'
  /** 50 million streams. */
  | 'T50M'
  /** 100 million streams. */
  | 'T100M'
  /** 500 million streams. */
  | 'T500M';

/** Counts of one day, as the upstream saw them at its daily refresh. */
export type StreamSnapshot = {
  __typename?: 'StreamSnapshot';
  /** Streams during the day. */
  dailyStreams?: Maybe<Scalars['SafeInt']['output']>;
  /** The day (UTC). */
  date: Scalars['Date']['output'];
  /** Monthly listeners on the day (artists only; null for songs). */
  monthlyListeners?: Maybe<Scalars['SafeInt']['output']>;
  /** All-time streams at the end of the day. */
  totalStreams?: Maybe<Scalars['SafeInt']['output']>;
};

/** Live data: what the gateway learns when the upstream refreshes, pushed over GraphQL over SSE. */
export type Subscription = {
  __typename?: 'Subscription';
  /** Each milestone the upstream publishes from now on, once, as soon as the refresh poll (every `REFRESH_POLL_SECONDS`) sees it. */
  milestoneCrossed: Milestone;
};


/** Live data: what the gateway learns when the upstream refreshes, pushed over GraphQL over SSE. */
export type SubscriptionMilestoneCrossedArgs = {
  isAfrobeats?: InputMaybe<Scalars['Boolean']['input']>;
};

/** A page of artists that crossed a stream tier. */
export type TierArtistConnection = {
  __typename?: 'TierArtistConnection';
  /** The items of this page, each with its cursor. */
  edges: Array<TierArtistEdge>;
  /** The nodes of the edges, for clients that do not need cursors. */
  nodes: Array<Artist>;
  /** Where this page sits in the whole list. */
  pageInfo: PageInfo;
  /** Number of artists past the tier (upstream `meta.total`). */
  totalCount: Scalars['Int']['output'];
};

/** An artist that crossed the tier. */
export type TierArtistEdge = {
  __typename?: 'TierArtistEdge';
  /** Day the artist crossed the tier. */
  crossedAt?: Maybe<Scalars['Date']['output']>;
  /** Opaque cursor of this edge, for `after`/`before`. */
  cursor: Scalars['String']['output'];
  /** The item at this edge. */
  node: Artist;
};

/** A page of songs that crossed a stream tier. */
export type TierSongConnection = {
  __typename?: 'TierSongConnection';
  /** The items of this page, each with its cursor. */
  edges: Array<TierSongEdge>;
  /** The nodes of the edges, for clients that do not need cursors. */
  nodes: Array<Song>;
  /** Where this page sits in the whole list. */
  pageInfo: PageInfo;
  /** Number of songs past the tier (upstream `meta.total`). */
  totalCount: Scalars['Int']['output'];
};

/** A song that crossed the tier. */
export type TierSongEdge = {
  __typename?: 'TierSongEdge';
  /** Day the song crossed the tier. */
  crossedAt?: Maybe<Scalars['Date']['output']>;
  /** Opaque cursor of this edge, for `after`/`before`. */
  cursor: Scalars['String']['output'];
  /** The item at this edge. */
  node: Song;
};

/** A song at its place on an album. */
export type Track = {
  __typename?: 'Track';
  /** The song. */
  song: Song;
  /** Position on the album, from 1. */
  trackNumber: Scalars['Int']['output'];
};

/** An artist at its rank by momentum. */
export type TrendingArtist = {
  __typename?: 'TrendingArtist';
  /** The artist (summary fields cost nothing extra). */
  artist: Artist;
  /** Momentum score; higher is hotter. Null when the upstream does not say. */
  momentumScore?: Maybe<Scalars['Float']['output']>;
  /** Rank, from 1. */
  rank: Scalars['Int']['output'];
};

/** A song at its rank by momentum. */
export type TrendingSong = {
  __typename?: 'TrendingSong';
  /** Momentum score; higher is hotter. Null when the upstream does not say. */
  momentumScore?: Maybe<Scalars['Float']['output']>;
  /** Rank, from 1. */
  rank: Scalars['Int']['output'];
  /** The song (summary fields cost nothing extra). */
  song: Song;
};

export type ApiUsageQueryVariables = Exact<{ [key: string]: never; }>;


export type ApiUsageQuery = { __typename?: 'Query', apiUsage: { __typename?: 'ApiUsage', dailyLimit: number, used: number, remaining: number, resetsAt: string } };

export type ArtistPageQueryVariables = Exact<{
  slug: Scalars['String']['input'];
}>;


export type ArtistPageQuery = { __typename?: 'Query', artist?: { __typename?: 'Artist', id: string, slug: string, name: string, imageUrl?: string | null, country?: string | null, isAfrobeats?: boolean | null, totalStreams?: number | null, dailyStreams?: number | null, monthlyListeners?: number | null, followers?: number | null, awards?: Array<{ __typename?: 'Award', name: string, category?: string | null, year?: number | null, won?: boolean | null }> | null, chartPositions?: Array<{ __typename?: 'ArtistChartPosition', week?: string | null, position: number, peakPosition?: number | null, weeksOnChart?: number | null, chart: { __typename?: 'ChartSummary', name: string, territory: string } }> | null, topSongs?: Array<{ __typename?: 'Song', slug: string, title: string, releaseDate?: string | null, totalStreams?: number | null, dailyStreams?: number | null, album?: { __typename?: 'Album', title: string } | null }> | null, songs?: { __typename?: 'SongConnection', totalCount: number, nodes: Array<{ __typename?: 'Song', slug: string, title: string, releaseDate?: string | null, totalStreams?: number | null }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null } } | null } & ({ __typename?: 'Artist', history?: Array<{ __typename?: 'StreamSnapshot', date: string, totalStreams?: number | null, dailyStreams?: number | null, monthlyListeners?: number | null }> | null } | { __typename?: 'Artist', history?: never }) & ({ __typename?: 'Artist', milestones?: Array<{ __typename?: 'Milestone', id: string, platform?: string | null, threshold: number, crossedAt: string, song?: { __typename?: 'Song', title: string } | null }> | null } | { __typename?: 'Artist', milestones?: never }) | null };

export type BrowseArtistsQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
  country?: InputMaybe<Scalars['String']['input']>;
  sortBy?: InputMaybe<ArtistSort>;
}>;


export type BrowseArtistsQuery = { __typename?: 'Query', artists?: { __typename?: 'ArtistConnection', totalCount: number, edges: Array<{ __typename?: 'ArtistEdge', cursor: string, node: { __typename?: 'Artist', slug: string, name: string, country?: string | null, monthlyListeners?: number | null } }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, hasPreviousPage: boolean, startCursor?: string | null, endCursor?: string | null } } | null };

export type ChartWithTrendsQueryVariables = Exact<{
  name?: Scalars['String']['input'];
  territory?: Scalars['String']['input'];
  limit?: InputMaybe<Scalars['Int']['input']>;
}>;


export type ChartWithTrendsQuery = { __typename?: 'Query', charts?: Array<{ __typename?: 'ChartSummary', name: string, territory: string, latestWeek?: string | null, totalEntries?: number | null }> | null, chart?: { __typename?: 'Chart', name: string, territory: string, week: string, totalEntries: number, entries: Array<{ __typename?: 'ChartEntry', position: number, previousPosition?: number | null, trend: ChartTrend, delta: number, peakPosition: number, weeksOnChart: number, songTitle: string, artistName: string }> } | null };

export type LeaderboardsQueryVariables = Exact<{
  limit?: InputMaybe<Scalars['Int']['input']>;
  isAfrobeats?: InputMaybe<Scalars['Boolean']['input']>;
}>;


export type LeaderboardsQuery = { __typename?: 'Query', topArtistsByStreams?: Array<{ __typename?: 'RankedArtist', rank: number, artist: { __typename?: 'Artist', slug: string, name: string, country?: string | null, imageUrl?: string | null, totalStreams?: number | null, monthlyListeners?: number | null } }> | null, trendingSongs?: Array<{ __typename?: 'TrendingSong', rank: number, momentumScore?: number | null, song: { __typename?: 'Song', slug: string, title: string, totalStreams?: number | null, dailyStreams?: number | null, artist: { __typename?: 'Artist', slug: string, name: string } } }> | null };

export type MilestoneCrossedSubscriptionVariables = Exact<{
  isAfrobeats?: InputMaybe<Scalars['Boolean']['input']>;
}>;


export type MilestoneCrossedSubscription = { __typename?: 'Subscription', milestoneCrossed: { __typename?: 'Milestone', id: string, platform?: string | null, threshold: number, crossedAt: string, artist: { __typename?: 'Artist', slug: string, name: string }, song?: { __typename?: 'Song', title: string } | null } };

export type RecentMilestonesQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
  isAfrobeats?: InputMaybe<Scalars['Boolean']['input']>;
}>;


export type RecentMilestonesQuery = { __typename?: 'Query', recentMilestones?: { __typename?: 'MilestoneConnection', totalCount: number, nodes: Array<{ __typename?: 'Milestone', id: string, platform?: string | null, threshold: number, crossedAt: string, streamValue?: number | null, artist: { __typename?: 'Artist', slug: string, name: string }, song?: { __typename?: 'Song', title: string } | null }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null } } | null };


export const ApiUsageDocument = {"__meta__":{"hash":"9bac3acbb835a8676786095df0e9b2861e806f456b1e7e2aa83182e4988fc91e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ApiUsage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiUsage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dailyLimit"}},{"kind":"Field","name":{"kind":"Name","value":"used"}},{"kind":"Field","name":{"kind":"Name","value":"remaining"}},{"kind":"Field","name":{"kind":"Name","value":"resetsAt"}}]}}]}}]} as unknown as DocumentNode<ApiUsageQuery, ApiUsageQueryVariables>;
export const ArtistPageDocument = {"__meta__":{"hash":"fa41ebd503456fd219b44b2b61be3285eebca4cec5ca383cf8f7754775cb0d5b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ArtistPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"slug"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"artist"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"slug"},"value":{"kind":"Variable","name":{"kind":"Name","value":"slug"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"imageUrl"}},{"kind":"Field","name":{"kind":"Name","value":"country"}},{"kind":"Field","name":{"kind":"Name","value":"isAfrobeats"}},{"kind":"Field","name":{"kind":"Name","value":"totalStreams"}},{"kind":"Field","name":{"kind":"Name","value":"dailyStreams"}},{"kind":"Field","name":{"kind":"Name","value":"monthlyListeners"}},{"kind":"Field","name":{"kind":"Name","value":"followers"}},{"kind":"Field","name":{"kind":"Name","value":"awards"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"category"}},{"kind":"Field","name":{"kind":"Name","value":"year"}},{"kind":"Field","name":{"kind":"Name","value":"won"}}]}},{"kind":"Field","name":{"kind":"Name","value":"chartPositions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chart"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"territory"}}]}},{"kind":"Field","name":{"kind":"Name","value":"week"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"peakPosition"}},{"kind":"Field","name":{"kind":"Name","value":"weeksOnChart"}}]}},{"kind":"Field","name":{"kind":"Name","value":"topSongs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"releaseDate"}},{"kind":"Field","name":{"kind":"Name","value":"totalStreams"}},{"kind":"Field","name":{"kind":"Name","value":"dailyStreams"}},{"kind":"Field","name":{"kind":"Name","value":"album"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"songs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"releaseDate"}},{"kind":"Field","name":{"kind":"Name","value":"totalStreams"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}},{"kind":"InlineFragment","directives":[{"kind":"Directive","name":{"kind":"Name","value":"defer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"label"},"value":{"kind":"StringValue","value":"slowParts","block":false}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"history"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"date"}},{"kind":"Field","name":{"kind":"Name","value":"totalStreams"}},{"kind":"Field","name":{"kind":"Name","value":"dailyStreams"}},{"kind":"Field","name":{"kind":"Name","value":"monthlyListeners"}}]}},{"kind":"Field","name":{"kind":"Name","value":"milestones"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"threshold"}},{"kind":"Field","name":{"kind":"Name","value":"crossedAt"}},{"kind":"Field","name":{"kind":"Name","value":"song"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ArtistPageQuery, ArtistPageQueryVariables>;
export const BrowseArtistsDocument = {"__meta__":{"hash":"fdad12e8128b7d08f44d04121a19d6afd5f67effa7ceb053ad03e22e6f35562f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BrowseArtists"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}},"defaultValue":{"kind":"IntValue","value":"10"}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"country"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sortBy"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ArtistSort"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"artists"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"country"},"value":{"kind":"Variable","name":{"kind":"Name","value":"country"}}},{"kind":"Argument","name":{"kind":"Name","value":"sortBy"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sortBy"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"country"}},{"kind":"Field","name":{"kind":"Name","value":"monthlyListeners"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<BrowseArtistsQuery, BrowseArtistsQueryVariables>;
export const ChartWithTrendsDocument = {"__meta__":{"hash":"055ec41e0ba7f38af20b147abd529da2f59603f715d3ff62cc0fa7bd3d858f23"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ChartWithTrends"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},"defaultValue":{"kind":"StringValue","value":"official_afrobeats_chart","block":false}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"territory"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},"defaultValue":{"kind":"StringValue","value":"UK","block":false}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}},"defaultValue":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"charts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"territory"}},{"kind":"Field","name":{"kind":"Name","value":"latestWeek"}},{"kind":"Field","name":{"kind":"Name","value":"totalEntries"}}]}},{"kind":"Field","name":{"kind":"Name","value":"chart"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"territory"},"value":{"kind":"Variable","name":{"kind":"Name","value":"territory"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"territory"}},{"kind":"Field","name":{"kind":"Name","value":"week"}},{"kind":"Field","name":{"kind":"Name","value":"totalEntries"}},{"kind":"Field","name":{"kind":"Name","value":"entries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"previousPosition"}},{"kind":"Field","name":{"kind":"Name","value":"trend"}},{"kind":"Field","name":{"kind":"Name","value":"delta"}},{"kind":"Field","name":{"kind":"Name","value":"peakPosition"}},{"kind":"Field","name":{"kind":"Name","value":"weeksOnChart"}},{"kind":"Field","name":{"kind":"Name","value":"songTitle"}},{"kind":"Field","name":{"kind":"Name","value":"artistName"}}]}}]}}]}}]} as unknown as DocumentNode<ChartWithTrendsQuery, ChartWithTrendsQueryVariables>;
export const LeaderboardsDocument = {"__meta__":{"hash":"a459015a2125a7b89204cf08c0ccdb8297121a486f0633a611c8ad39db5a58ec"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Leaderboards"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}},"defaultValue":{"kind":"IntValue","value":"10"}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"isAfrobeats"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"topArtistsByStreams"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}},{"kind":"Argument","name":{"kind":"Name","value":"isAfrobeats"},"value":{"kind":"Variable","name":{"kind":"Name","value":"isAfrobeats"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rank"}},{"kind":"Field","name":{"kind":"Name","value":"artist"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"country"}},{"kind":"Field","name":{"kind":"Name","value":"imageUrl"}},{"kind":"Field","name":{"kind":"Name","value":"totalStreams"}},{"kind":"Field","name":{"kind":"Name","value":"monthlyListeners"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"trendingSongs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}},{"kind":"Argument","name":{"kind":"Name","value":"isAfrobeats"},"value":{"kind":"Variable","name":{"kind":"Name","value":"isAfrobeats"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rank"}},{"kind":"Field","name":{"kind":"Name","value":"momentumScore"}},{"kind":"Field","name":{"kind":"Name","value":"song"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"totalStreams"}},{"kind":"Field","name":{"kind":"Name","value":"dailyStreams"}},{"kind":"Field","name":{"kind":"Name","value":"artist"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]} as unknown as DocumentNode<LeaderboardsQuery, LeaderboardsQueryVariables>;
export const MilestoneCrossedDocument = {"__meta__":{"hash":"12ca46fa0340c4280395bd0b61d9b001256ebd7f1cec1e88d452cb1278b63053"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"MilestoneCrossed"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"isAfrobeats"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"milestoneCrossed"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"isAfrobeats"},"value":{"kind":"Variable","name":{"kind":"Name","value":"isAfrobeats"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"threshold"}},{"kind":"Field","name":{"kind":"Name","value":"crossedAt"}},{"kind":"Field","name":{"kind":"Name","value":"artist"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"song"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}}]} as unknown as DocumentNode<MilestoneCrossedSubscription, MilestoneCrossedSubscriptionVariables>;
export const RecentMilestonesDocument = {"__meta__":{"hash":"0e33339bcacc918cbbefc0d4157f3a351061be31c063af3c617e35f91fdc9a8a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RecentMilestones"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}},"defaultValue":{"kind":"IntValue","value":"20"}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"isAfrobeats"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"recentMilestones"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"isAfrobeats"},"value":{"kind":"Variable","name":{"kind":"Name","value":"isAfrobeats"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"platform"}},{"kind":"Field","name":{"kind":"Name","value":"threshold"}},{"kind":"Field","name":{"kind":"Name","value":"crossedAt"}},{"kind":"Field","name":{"kind":"Name","value":"streamValue"}},{"kind":"Field","name":{"kind":"Name","value":"artist"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"song"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<RecentMilestonesQuery, RecentMilestonesQueryVariables>;