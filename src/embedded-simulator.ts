/**
 * The upstream simulator `npm start` runs when no UPSTREAM_URL is set: in the
 * gateway's process, or in a cluster's primary, whose workers are told where
 * it is (cluster.ts) and read it as their upstream.
 */
import type { GatewayConfig } from './gateway/gateway-config.js';
import { type Simulator, startSimulator } from './simulator/index.js';

export const SIMULATOR_KEY = 'gateway-demo-key';

/** Set by a primary for its workers when their upstream is its simulator: the example artist's slug. */
export const EMBEDDED_SIMULATOR = 'GATEWAY_EMBEDDED_SIMULATOR';

/** Where the gateway reads, and what GraphiQL's example tabs ask for there. */
export interface Upstream {
  readonly url: string;
  readonly apiKey: string | undefined;
  /** The simulator this process started; undefined for any other upstream. */
  readonly simulator: Simulator | undefined;
  /** Whether the upstream is a simulator `npm start` started, here or in the primary. */
  readonly embedded: boolean;
  readonly exampleVariables: Record<string, Record<string, unknown>>;
}

/** An artist the real upstream has, for GraphiQL's example tabs against it. */
const REAL_EXAMPLE_ARTIST = 'burna-boy';

export async function embeddedSimulator(config: GatewayConfig): Promise<Upstream> {
  const simulator = await startSimulator({
    artists: config.simulator.artists,
    seed: config.simulator.seed,
    latencyMs: config.simulator.latencyMs,
    roughness: config.simulator.roughness,
    apiKeys: [SIMULATOR_KEY],
    dailyLimit: config.dailyLimit,
  });
  return {
    url: simulator.url,
    apiKey: SIMULATOR_KEY,
    simulator,
    embedded: true,
    exampleVariables: exampleFor(simulator.data.allArtists()[0]?.slug ?? REAL_EXAMPLE_ARTIST),
  };
}

/** The upstream the configuration names: the simulator of this process's primary, or another. */
export function configuredUpstream(url: string, apiKey: string | undefined): Upstream {
  const embeddedSlug = process.env[EMBEDDED_SIMULATOR];
  return {
    url,
    apiKey,
    simulator: undefined,
    embedded: embeddedSlug !== undefined,
    exampleVariables: exampleFor(embeddedSlug ?? REAL_EXAMPLE_ARTIST),
  };
}

const exampleFor = (slug: string) => ({ ArtistPage: { slug } });
