/** The simulated upstream both harnesses run against, with the one key they use. */
import { type Simulator, startSimulator } from '../src/simulator/index.js';
import type { SimulationOptions } from './options.js';

export const API_KEY = 'simulate-key';

export function startSimulatedUpstream(options: SimulationOptions): Promise<Simulator> {
  return startSimulator({
    artists: options.artists,
    seed: options.seed,
    apiKeys: [API_KEY],
    dailyLimit: options.limit,
    refreshHourUtc: options.refreshHourUtc,
  });
}
