/**
 * The gateway's layers, bottom to top. A module may import its own layer's
 * folder and anything below; never a layer above, and never in a circle.
 * `npm run lint` runs this (depcruise), so an import that points up fails CI.
 *
 *   0 leaves        config-error.ts, error-codes.ts, time.ts, digest.ts, production-mode.ts
 *   1 redis/        connections, scripts, batched reads, key names
 *   2 upstream/     the REST API alone: endpoints, records, readers, client
 *   3 cache/ economy/ coordination/ freshness/   stores, each an interface
 *                   with its memory and Redis implementations side by side
 *   4 reads/        the read path: callers, cached upstream, request loader
 *   5 live/         the refresh poll and the live feed
 *   6 schema/       the Pothos schema and its resolvers
 *   7 observability/ server/   metrics, tracing, logs; Yoga, plugins, HTTP
 *   8 config.ts main.ts cluster.ts logger.ts stop-on-signals.ts
 *
 * The simulator (src/simulator/) stands apart: it is the upstream's stand-in
 * and may use leaves only, and no gateway module imports it but the
 * entry points (which start it when UPSTREAM_URL is unset).
 */
const LAYERS = [
  ['^src/(config-error|error-codes|time|digest|production-mode)\\.ts$'],
  ['^src/redis/'],
  ['^src/upstream/'],
  ['^src/(cache|economy|coordination|freshness)/'],
  ['^src/reads/'],
  ['^src/live/'],
  ['^src/schema/'],
  ['^src/(observability|server)/'],
  ['^src/(config|main|cluster|logger|stop-on-signals)\\.ts$'],
];

const above = (index) => LAYERS.slice(index + 1).flat();

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle hides which module depends on which (type-only imports count).',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...LAYERS.slice(0, -1).map((paths, index) => ({
      name: `layer-${index}-imports-up`,
      severity: 'error',
      comment: 'Imports point down the layers (.dependency-cruiser.cjs lists them).',
      from: { path: paths },
      to: { path: above(index) },
    })),
    {
      name: 'stores-stay-apart',
      severity: 'error',
      comment:
        'The stores of layer 3 do not import each other: what two of them share lives below them.',
      from: { path: '^src/(cache|economy|coordination|freshness)/' },
      to: { path: '^src/(cache|economy|coordination|freshness)/', pathNot: '^src/$1/' },
    },
    {
      name: 'simulator-stands-apart',
      severity: 'error',
      comment: 'The simulator is the upstream, not the gateway: it shares leaves only.',
      from: { path: '^src/simulator/' },
      to: { path: '^src/', pathNot: ['^src/simulator/', LAYERS[0][0]] },
    },
    {
      name: 'only-entry-points-start-the-simulator',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/simulator/', '^src/(main|cluster)\\.ts$'] },
      to: { path: '^src/simulator/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
