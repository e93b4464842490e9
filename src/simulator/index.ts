/** The upstream REST API simulator: public surface for the gateway's tests, benchmark and scripts. */
export { startSimulator, type Simulator } from './server.js';
export type { SimulatorOptions } from './options.js';
export type { CallRecord } from './call-log.js';
export type { Fault, FaultOptions } from './faults.js';
export type {
  AlbumQuery, AlbumSort, ArtistQuery, ArtistSort, MilestoneQuery, PageQuery, RankQuery, SimulatorData,
} from './data.js';
export type * from './types.js';
