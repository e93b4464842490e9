/** The upstream REST API simulator: public surface for the gateway's tests, benchmark and scripts. */

export type { CallRecord } from './call-log.js';
export type {
  AlbumQuery,
  AlbumSort,
  ArtistQuery,
  ArtistSort,
  MilestoneQuery,
  PageQuery,
  RankQuery,
  SimulatorData,
} from './data.js';
export type { Fault, FaultOptions } from './faults.js';
export type { SimulatorOptions } from './options.js';
export { type Simulator, startSimulator } from './server.js';
export type * from './types.js';
