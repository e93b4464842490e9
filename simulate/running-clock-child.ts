/**
 * Loaded with `--import` into each gateway process of a simulated deployment
 * (deployment.ts): its calendar runs as the harness's does (running-clock.ts).
 */
import { installRunningClock } from './running-clock.js';

installRunningClock({
  startAt: Number(process.env.SIMULATE_CLOCK_START),
  anchor: Number(process.env.SIMULATE_CLOCK_ANCHOR),
  speed: Number(process.env.SIMULATE_CLOCK_SPEED),
});
