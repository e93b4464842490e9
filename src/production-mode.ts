/**
 * Imported first by every entry point that serves requests (main.ts, the
 * bench's gateway process), before anything loads graphql-js.
 *
 * Unless NODE_ENV is `production`, graphql-js replaces `instanceof` with a
 * check that reads `Symbol.toStringTag` on every mismatch, to report a second
 * copy of graphql in node_modules; executing a page of 7,000 fields spends
 * more than a tenth of its time there. It decides once, when it loads, so the
 * mode has to be set here. An operator who sets NODE_ENV keeps their value
 * (tests run with `test`, and keep the check).
 */
process.env.NODE_ENV ??= 'production';
