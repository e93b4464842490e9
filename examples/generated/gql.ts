/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query ApiUsage {\n  apiUsage {\n    dailyLimit\n    used\n    remaining\n    resetsAt\n  }\n}": typeof types.ApiUsageDocument,
    "query ArtistPage($slug: String!) {\n  artist(slug: $slug) {\n    id\n    slug\n    name\n    imageUrl\n    country\n    isAfrobeats\n    totalStreams\n    dailyStreams\n    monthlyListeners\n    followers\n    awards {\n      name\n      category\n      year\n      won\n    }\n    chartPositions {\n      chart {\n        name\n        territory\n      }\n      week\n      position\n      peakPosition\n      weeksOnChart\n    }\n    topSongs {\n      slug\n      title\n      releaseDate\n      totalStreams\n      dailyStreams\n      album {\n        title\n      }\n    }\n    songs(first: 10) {\n      totalCount\n      nodes {\n        slug\n        title\n        releaseDate\n        totalStreams\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n    history {\n      date\n      totalStreams\n      dailyStreams\n      monthlyListeners\n    }\n    milestones {\n      id\n      platform\n      threshold\n      crossedAt\n      song {\n        title\n      }\n    }\n  }\n}": typeof types.ArtistPageDocument,
    "query BrowseArtists($first: Int = 10, $after: String, $country: String, $sortBy: ArtistSort) {\n  artists(first: $first, after: $after, country: $country, sortBy: $sortBy) {\n    totalCount\n    edges {\n      cursor\n      node {\n        slug\n        name\n        country\n        monthlyListeners\n      }\n    }\n    pageInfo {\n      hasNextPage\n      hasPreviousPage\n      startCursor\n      endCursor\n    }\n  }\n}": typeof types.BrowseArtistsDocument,
    "query ChartWithTrends($name: String! = \"official_afrobeats_chart\", $territory: String! = \"UK\", $limit: Int = 20) {\n  charts {\n    name\n    territory\n    latestWeek\n    totalEntries\n  }\n  chart(name: $name, territory: $territory, limit: $limit) {\n    name\n    territory\n    week\n    totalEntries\n    entries {\n      position\n      previousPosition\n      trend\n      delta\n      peakPosition\n      weeksOnChart\n      songTitle\n      artistName\n    }\n  }\n}": typeof types.ChartWithTrendsDocument,
    "query Leaderboards($limit: Int = 10, $isAfrobeats: Boolean) {\n  topArtistsByStreams(limit: $limit, isAfrobeats: $isAfrobeats) {\n    rank\n    artist {\n      slug\n      name\n      country\n      imageUrl\n      totalStreams\n      monthlyListeners\n    }\n  }\n  trendingSongs(limit: $limit, isAfrobeats: $isAfrobeats) {\n    rank\n    momentumScore\n    song {\n      slug\n      title\n      totalStreams\n      dailyStreams\n      artist {\n        slug\n        name\n      }\n    }\n  }\n}": typeof types.LeaderboardsDocument,
    "subscription MilestoneCrossed($isAfrobeats: Boolean) {\n  milestoneCrossed(isAfrobeats: $isAfrobeats) {\n    id\n    platform\n    threshold\n    crossedAt\n    artist {\n      slug\n      name\n    }\n    song {\n      title\n    }\n  }\n}": typeof types.MilestoneCrossedDocument,
    "query RecentMilestones($first: Int = 20, $after: String, $isAfrobeats: Boolean) {\n  recentMilestones(first: $first, after: $after, isAfrobeats: $isAfrobeats) {\n    totalCount\n    nodes {\n      id\n      platform\n      threshold\n      crossedAt\n      streamValue\n      artist {\n        slug\n        name\n      }\n      song {\n        title\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}": typeof types.RecentMilestonesDocument,
};
const documents: Documents = {
    "query ApiUsage {\n  apiUsage {\n    dailyLimit\n    used\n    remaining\n    resetsAt\n  }\n}": types.ApiUsageDocument,
    "query ArtistPage($slug: String!) {\n  artist(slug: $slug) {\n    id\n    slug\n    name\n    imageUrl\n    country\n    isAfrobeats\n    totalStreams\n    dailyStreams\n    monthlyListeners\n    followers\n    awards {\n      name\n      category\n      year\n      won\n    }\n    chartPositions {\n      chart {\n        name\n        territory\n      }\n      week\n      position\n      peakPosition\n      weeksOnChart\n    }\n    topSongs {\n      slug\n      title\n      releaseDate\n      totalStreams\n      dailyStreams\n      album {\n        title\n      }\n    }\n    songs(first: 10) {\n      totalCount\n      nodes {\n        slug\n        title\n        releaseDate\n        totalStreams\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n    history {\n      date\n      totalStreams\n      dailyStreams\n      monthlyListeners\n    }\n    milestones {\n      id\n      platform\n      threshold\n      crossedAt\n      song {\n        title\n      }\n    }\n  }\n}": types.ArtistPageDocument,
    "query BrowseArtists($first: Int = 10, $after: String, $country: String, $sortBy: ArtistSort) {\n  artists(first: $first, after: $after, country: $country, sortBy: $sortBy) {\n    totalCount\n    edges {\n      cursor\n      node {\n        slug\n        name\n        country\n        monthlyListeners\n      }\n    }\n    pageInfo {\n      hasNextPage\n      hasPreviousPage\n      startCursor\n      endCursor\n    }\n  }\n}": types.BrowseArtistsDocument,
    "query ChartWithTrends($name: String! = \"official_afrobeats_chart\", $territory: String! = \"UK\", $limit: Int = 20) {\n  charts {\n    name\n    territory\n    latestWeek\n    totalEntries\n  }\n  chart(name: $name, territory: $territory, limit: $limit) {\n    name\n    territory\n    week\n    totalEntries\n    entries {\n      position\n      previousPosition\n      trend\n      delta\n      peakPosition\n      weeksOnChart\n      songTitle\n      artistName\n    }\n  }\n}": types.ChartWithTrendsDocument,
    "query Leaderboards($limit: Int = 10, $isAfrobeats: Boolean) {\n  topArtistsByStreams(limit: $limit, isAfrobeats: $isAfrobeats) {\n    rank\n    artist {\n      slug\n      name\n      country\n      imageUrl\n      totalStreams\n      monthlyListeners\n    }\n  }\n  trendingSongs(limit: $limit, isAfrobeats: $isAfrobeats) {\n    rank\n    momentumScore\n    song {\n      slug\n      title\n      totalStreams\n      dailyStreams\n      artist {\n        slug\n        name\n      }\n    }\n  }\n}": types.LeaderboardsDocument,
    "subscription MilestoneCrossed($isAfrobeats: Boolean) {\n  milestoneCrossed(isAfrobeats: $isAfrobeats) {\n    id\n    platform\n    threshold\n    crossedAt\n    artist {\n      slug\n      name\n    }\n    song {\n      title\n    }\n  }\n}": types.MilestoneCrossedDocument,
    "query RecentMilestones($first: Int = 20, $after: String, $isAfrobeats: Boolean) {\n  recentMilestones(first: $first, after: $after, isAfrobeats: $isAfrobeats) {\n    totalCount\n    nodes {\n      id\n      platform\n      threshold\n      crossedAt\n      streamValue\n      artist {\n        slug\n        name\n      }\n      song {\n        title\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}": types.RecentMilestonesDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ApiUsage {\n  apiUsage {\n    dailyLimit\n    used\n    remaining\n    resetsAt\n  }\n}"): (typeof documents)["query ApiUsage {\n  apiUsage {\n    dailyLimit\n    used\n    remaining\n    resetsAt\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ArtistPage($slug: String!) {\n  artist(slug: $slug) {\n    id\n    slug\n    name\n    imageUrl\n    country\n    isAfrobeats\n    totalStreams\n    dailyStreams\n    monthlyListeners\n    followers\n    awards {\n      name\n      category\n      year\n      won\n    }\n    chartPositions {\n      chart {\n        name\n        territory\n      }\n      week\n      position\n      peakPosition\n      weeksOnChart\n    }\n    topSongs {\n      slug\n      title\n      releaseDate\n      totalStreams\n      dailyStreams\n      album {\n        title\n      }\n    }\n    songs(first: 10) {\n      totalCount\n      nodes {\n        slug\n        title\n        releaseDate\n        totalStreams\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n    history {\n      date\n      totalStreams\n      dailyStreams\n      monthlyListeners\n    }\n    milestones {\n      id\n      platform\n      threshold\n      crossedAt\n      song {\n        title\n      }\n    }\n  }\n}"): (typeof documents)["query ArtistPage($slug: String!) {\n  artist(slug: $slug) {\n    id\n    slug\n    name\n    imageUrl\n    country\n    isAfrobeats\n    totalStreams\n    dailyStreams\n    monthlyListeners\n    followers\n    awards {\n      name\n      category\n      year\n      won\n    }\n    chartPositions {\n      chart {\n        name\n        territory\n      }\n      week\n      position\n      peakPosition\n      weeksOnChart\n    }\n    topSongs {\n      slug\n      title\n      releaseDate\n      totalStreams\n      dailyStreams\n      album {\n        title\n      }\n    }\n    songs(first: 10) {\n      totalCount\n      nodes {\n        slug\n        title\n        releaseDate\n        totalStreams\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n    history {\n      date\n      totalStreams\n      dailyStreams\n      monthlyListeners\n    }\n    milestones {\n      id\n      platform\n      threshold\n      crossedAt\n      song {\n        title\n      }\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query BrowseArtists($first: Int = 10, $after: String, $country: String, $sortBy: ArtistSort) {\n  artists(first: $first, after: $after, country: $country, sortBy: $sortBy) {\n    totalCount\n    edges {\n      cursor\n      node {\n        slug\n        name\n        country\n        monthlyListeners\n      }\n    }\n    pageInfo {\n      hasNextPage\n      hasPreviousPage\n      startCursor\n      endCursor\n    }\n  }\n}"): (typeof documents)["query BrowseArtists($first: Int = 10, $after: String, $country: String, $sortBy: ArtistSort) {\n  artists(first: $first, after: $after, country: $country, sortBy: $sortBy) {\n    totalCount\n    edges {\n      cursor\n      node {\n        slug\n        name\n        country\n        monthlyListeners\n      }\n    }\n    pageInfo {\n      hasNextPage\n      hasPreviousPage\n      startCursor\n      endCursor\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ChartWithTrends($name: String! = \"official_afrobeats_chart\", $territory: String! = \"UK\", $limit: Int = 20) {\n  charts {\n    name\n    territory\n    latestWeek\n    totalEntries\n  }\n  chart(name: $name, territory: $territory, limit: $limit) {\n    name\n    territory\n    week\n    totalEntries\n    entries {\n      position\n      previousPosition\n      trend\n      delta\n      peakPosition\n      weeksOnChart\n      songTitle\n      artistName\n    }\n  }\n}"): (typeof documents)["query ChartWithTrends($name: String! = \"official_afrobeats_chart\", $territory: String! = \"UK\", $limit: Int = 20) {\n  charts {\n    name\n    territory\n    latestWeek\n    totalEntries\n  }\n  chart(name: $name, territory: $territory, limit: $limit) {\n    name\n    territory\n    week\n    totalEntries\n    entries {\n      position\n      previousPosition\n      trend\n      delta\n      peakPosition\n      weeksOnChart\n      songTitle\n      artistName\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Leaderboards($limit: Int = 10, $isAfrobeats: Boolean) {\n  topArtistsByStreams(limit: $limit, isAfrobeats: $isAfrobeats) {\n    rank\n    artist {\n      slug\n      name\n      country\n      imageUrl\n      totalStreams\n      monthlyListeners\n    }\n  }\n  trendingSongs(limit: $limit, isAfrobeats: $isAfrobeats) {\n    rank\n    momentumScore\n    song {\n      slug\n      title\n      totalStreams\n      dailyStreams\n      artist {\n        slug\n        name\n      }\n    }\n  }\n}"): (typeof documents)["query Leaderboards($limit: Int = 10, $isAfrobeats: Boolean) {\n  topArtistsByStreams(limit: $limit, isAfrobeats: $isAfrobeats) {\n    rank\n    artist {\n      slug\n      name\n      country\n      imageUrl\n      totalStreams\n      monthlyListeners\n    }\n  }\n  trendingSongs(limit: $limit, isAfrobeats: $isAfrobeats) {\n    rank\n    momentumScore\n    song {\n      slug\n      title\n      totalStreams\n      dailyStreams\n      artist {\n        slug\n        name\n      }\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "subscription MilestoneCrossed($isAfrobeats: Boolean) {\n  milestoneCrossed(isAfrobeats: $isAfrobeats) {\n    id\n    platform\n    threshold\n    crossedAt\n    artist {\n      slug\n      name\n    }\n    song {\n      title\n    }\n  }\n}"): (typeof documents)["subscription MilestoneCrossed($isAfrobeats: Boolean) {\n  milestoneCrossed(isAfrobeats: $isAfrobeats) {\n    id\n    platform\n    threshold\n    crossedAt\n    artist {\n      slug\n      name\n    }\n    song {\n      title\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query RecentMilestones($first: Int = 20, $after: String, $isAfrobeats: Boolean) {\n  recentMilestones(first: $first, after: $after, isAfrobeats: $isAfrobeats) {\n    totalCount\n    nodes {\n      id\n      platform\n      threshold\n      crossedAt\n      streamValue\n      artist {\n        slug\n        name\n      }\n      song {\n        title\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}"): (typeof documents)["query RecentMilestones($first: Int = 20, $after: String, $isAfrobeats: Boolean) {\n  recentMilestones(first: $first, after: $after, isAfrobeats: $isAfrobeats) {\n    totalCount\n    nodes {\n      id\n      platform\n      threshold\n      crossedAt\n      streamValue\n      artist {\n        slug\n        name\n      }\n      song {\n        title\n      }\n    }\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;