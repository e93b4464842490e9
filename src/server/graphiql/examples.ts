/**
 * The example operations GraphiQL opens with: the same `.graphql` files that
 * codegen types, so what a newcomer tries is what a frontend compiles.
 */
import { readdirSync, readFileSync } from 'node:fs';

const EXAMPLES_DIR = new URL('../../../examples/operations/', import.meta.url);
/** Order of the tabs: the nested page first, it shows what the gateway is for. */
const TAB_ORDER = [
  'ArtistPage',
  'Leaderboards',
  'BrowseArtists',
  'ChartWithTrends',
  'RecentMilestones',
  'MilestoneCrossed',
  'ApiUsage',
];

export interface ExampleTab {
  readonly query: string;
  readonly variables?: string;
}

export function exampleTabs(variables: Record<string, Record<string, unknown>> = {}): ExampleTab[] {
  const names = readdirSync(EXAMPLES_DIR)
    .filter((file) => file.endsWith('.graphql'))
    .map((file) => file.slice(0, -'.graphql'.length))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return names.map((name) => {
    const query = readFileSync(new URL(`${name}.graphql`, EXAMPLES_DIR), 'utf8');
    const vars = variables[name];
    return vars === undefined ? { query } : { query, variables: JSON.stringify(vars, null, 2) };
  });
}

/**
 * GraphiQL's options for the example tabs. `defaultQuery` must be the first tab's query: Yoga's
 * GraphiQL puts `defaultQuery` (its welcome text when unset) into the first tab, which would
 * otherwise hide the ArtistPage example. That tab's variables do not come with it: the page
 * gives them to GraphiQL (graphiql-page.ts). Spread it into Yoga's `graphiql` options.
 */
export function exampleGraphiQL(variables: Record<string, Record<string, unknown>> = {}): {
  defaultTabs: ExampleTab[];
  defaultQuery: string | undefined;
} {
  const defaultTabs = exampleTabs(variables);
  return { defaultTabs, defaultQuery: defaultTabs[0]?.query };
}

function rank(name: string): number {
  const index = TAB_ORDER.indexOf(name);
  return index === -1 ? TAB_ORDER.length : index;
}
