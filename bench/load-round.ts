/**
 * One round of load on one server process: autocannon from the bench's own
 * process, and the server's CPU time read from the server process before and
 * after. The server runs alone in its process, so the difference is its own
 * work (parsing, executing, writing, GC), with nothing of the load generator
 * in it; the gateway and the bare server are measured the same way, which is
 * what makes their CPU times per request comparable.
 */
import autocannon from 'autocannon';
import { LOAD_HEADERS } from './http-capture.js';
import type { ServerProcess } from './ipc.js';

export interface Target {
  readonly url: string;
  readonly process: ServerProcess;
}

export interface Round {
  readonly requests: number;
  readonly seconds: number;
  readonly cpuMicros: number;
  /** The server's time in scavenges during the round (ipc.ts `Usage`). */
  readonly scavengeMs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Connection errors, timeouts and answers other than 2xx. */
  readonly errors: number;
}

export async function loadRound(
  target: Target,
  body: string,
  connections: number,
  seconds: number,
): Promise<Round> {
  const before = await target.process.usage();
  const result = await autocannon({
    url: target.url,
    method: 'POST',
    headers: LOAD_HEADERS,
    body,
    connections,
    duration: seconds,
  });
  const after = await target.process.usage();
  return {
    requests: result['2xx'],
    seconds: result.duration,
    cpuMicros: after.cpuMicros - before.cpuMicros,
    scavengeMs: after.scavengeMs - before.scavengeMs,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

export const perSecond = (rounds: readonly Round[]) =>
  rounds.reduce((sum, round) => sum + round.requests, 0) /
  rounds.reduce((sum, round) => sum + round.seconds, 0);

export const cpuMicrosPerRequest = (rounds: readonly Round[]) =>
  rounds.reduce((sum, round) => sum + round.cpuMicros, 0) /
  rounds.reduce((sum, round) => sum + round.requests, 0);

/** Milliseconds spent in scavenges per thousand requests over `rounds`. */
export const scavengeMsPerThousand = (rounds: readonly Round[]) =>
  (1000 * rounds.reduce((sum, round) => sum + round.scavengeMs, 0)) /
  rounds.reduce((sum, round) => sum + round.requests, 0);
