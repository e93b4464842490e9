/**
 * GraphiQL's page: Yoga's own (@graphql-yoga/render-graphiql's index.js, the same markup and
 * bundle), except that the variables of the tab GraphiQL opens with are chosen in the browser.
 *
 * Why the page has to choose them: GraphiQL (@graphiql/react's EditorContextProvider, in the
 * bundle) fills its editors from its `query` and `variables` props, else from what it showed last
 * (localStorage `graphiql:query`, `graphiql:variables`); only the query falls back to the first of
 * `defaultTabs`, the variables never do. Yoga always passes a `query` (the URL's `?query=`, else
 * `defaultQuery`, which it then writes into the URL) and never `variables`. So in a fresh profile
 * the first tab opened with its query and an empty Variables pane, though the tab itself kept its
 * variables (another tab and back showed them), and Run sent none.
 *
 * Variables fixed on the server would not do: GraphiQL looks for a tab holding exactly the query
 * and variables it opens with, and adds one when none does. After a reload on another tab (the
 * URL then carries that tab's query), the first tab's variables would be paired with that query
 * and a new tab added at each reload. The right variables depend on the URL and on what GraphiQL
 * kept, both in the browser: when GraphiQL kept no variables of its own, the page gives it those
 * of the example whose query it opens, and GraphiQL finds that example's tab and opens it as it is.
 */
import type { GraphiQLOptions } from 'graphql-yoga';

/**
 * Runs in the page, between the bundle and GraphiQL's start. What GraphiQL kept goes with the
 * query it showed last, which Yoga keeps in the URL: GraphiQL pairs them itself. Otherwise Yoga
 * opens the URL's query or `defaultQuery` (an empty `?query=` included, as Yoga reads it).
 */
const OPEN = `
  if (!localStorage.getItem('graphiql:variables')) {
    const query = new URLSearchParams(location.search).get('query') ?? options.defaultQuery;
    const tab = (options.defaultTabs ?? []).find((candidate) => candidate.query === query);
    if (tab?.variables) options.variables = tab.variables;
  }
  YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), options);
`;

/**
 * The page, whole: the bundle is inline (no CDN), its options as JSON safe inside a script. The
 * bundle's module is loaded here, on the first page asked for, not at start: its source and
 * the bundle's text hold several megabytes of every process's heap, and most processes (replicas
 * behind an API client, tests) never serve the page.
 */
export async function renderGraphiQLPage(options: GraphiQLOptions): Promise<string> {
  const { css, favicon, js } = await import('@graphql-yoga/render-graphiql/graphiql');
  const json = JSON.stringify(options).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(options.title ?? 'Yoga GraphiQL')}</title>
    <link rel="icon" href="${escapeHtml(options.favicon ?? favicon)}" />
    <style>
      ${css}
    </style>
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run this app.</noscript>
    <div id="root"></div>
    <script>
      ${js};
      {
        const options = ${json};
        ${OPEN}
      }
    </script>
  </body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}
