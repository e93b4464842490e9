/**
 * The gateway's layers, bottom to top. A module may import its own layer's
 * folder and anything below; never a layer above, and never in a circle.
 * `npm run lint` runs this (depcruise), so an import that points up fails CI.
 *
 *   0 leaves        config-error.ts, error-codes.ts, http-errors.ts, time.ts, digest.ts,
 *                   production-mode.ts, service-name.ts, url-path.ts, line-batches.ts,
 *                   log-lines.ts, setting-defaults.ts
 *   1 redis/        connections, scripts, batched reads, key names
 *     machine/      a cluster's workers and the stores their primary keeps: the messages
 *   2 upstream/     the REST API alone: endpoints, records, readers, client
 *   3 cache/ economy/ coordination/ freshness/   stores, each an interface
 *                   with its memory and Redis implementations side by side
 *   4 reads/        the read path: callers, cached upstream, request loader
 *   5 live/         the refresh poll and the live feed
 *   6 schema/       the Pothos schema and its resolvers
 *   7 observability/ server/   metrics, tracing, logs; Yoga's plugins, the HTTP edge
 *   8 gateway/      the composition root: the stores chosen, the read path,
 *                   the plugins and the listener put in order, one gateway
 *   9 config.ts worker-count.ts main.ts serve.ts embedded-simulator.ts cluster.ts logger.ts stop-on-signals.ts
 *                   warm-up.ts worker-output.ts
 *
 * The simulator (src/simulator/) stands apart: it is the upstream's stand-in
 * and may use leaves only, and no gateway module imports it but the
 * entry points (which start it when UPSTREAM_URL is unset) and the start-up
 * warm-up (warm-up.ts: a small one of its own, so warming calls no upstream).
 *
 * Every file of src/ is in a layer or in the simulator: a new folder or
 * top-level file is placed here before it lints.
 *
 * The stores' implementations (memory-*, redis-*, and the two-level cache that
 * composes them) are chosen in one place, the composition root (gateway/); everything
 * else sees a store through its interface, so that swapping memory for Redis
 * never reaches past that root.
 */
const LAYERS = [
  [
    '^src/(config-error|error-codes|http-errors|time|digest|production-mode|service-name|url-path|line-batches|log-lines|setting-defaults|temporary-folder|settled-heap)\\.ts$',
  ],
  ['^src/(redis|machine)/'],
  ['^src/upstream/'],
  ['^src/(cache|economy|coordination|freshness)/'],
  ['^src/reads/'],
  ['^src/live/'],
  ['^src/schema/'],
  ['^src/(observability|server)/'],
  ['^src/gateway/'],
  [
    '^src/(config|worker-count|main|serve|embedded-simulator|cluster|logger|stop-on-signals|warm-up|worker-output)\\.ts$',
  ],
];

const above = (index) => LAYERS.slice(index + 1).flat();

const SIMULATOR = '^src/simulator/';

const STORE_IMPLEMENTATIONS =
  '^src/(cache|economy|coordination|freshness)/(memory|redis|machine|two-level)-[^/]+\\.ts$';

/** The room that creates the stores and hands them to everything else. */
const COMPOSITION_ROOT = ['^src/gateway/'];

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
      name: 'every-file-in-a-layer',
      severity: 'error',
      comment:
        'Each file of src/ belongs to a layer of LAYERS (or to the simulator), so the layer rules see it.',
      // A rule on each module by itself, which dependency-cruiser only accepts
      // with a count of dependents: the path decides, the count (at most 100,
      // the schema's limit, far above any file here) always holds.
      module: {
        path: '^src/',
        pathNot: [...LAYERS.flat(), SIMULATOR],
        numberOfDependentsLessThan: 100,
      },
      from: {},
    },
    {
      name: 'store-implementations-only-in-the-composition-root',
      severity: 'error',
      comment:
        'Only the composition root chooses memory or Redis; other modules import the store interface. ' +
        'An implementation may compose another of its own folder (the two-level cache).',
      from: { path: '^src/', pathNot: [...COMPOSITION_ROOT, STORE_IMPLEMENTATIONS] },
      to: { path: STORE_IMPLEMENTATIONS },
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
      from: {
        path: '^src/',
        pathNot: ['^src/simulator/', '^src/(serve|embedded-simulator|warm-up)\\.ts$'],
      },
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
