/**
 * Where a cold request's time goes, seen from inside the gateway's process: node:http's and
 * undici's diagnostics channels mark the request's arrival and its answer's end, and each
 * upstream call's leaving and last byte. `npm run bench` asks for the phases after each cold
 * page (bench/run.ts): the gateway's own share of a page is wall time less the floor, and these
 * say where in the page that share was spent.
 */
import { subscribe } from 'node:diagnostics_channel';

export interface RequestPhases {
  /** From the request's arrival to its first upstream call leaving. */
  readonly beforeFirstCallMs: number;
  /** From each wave's last answer needed to the next wave's first call, summed. */
  readonly betweenWavesMs: number;
  /** The last wave's answers, from its first to its last: the upstream's spread and the reading of each. */
  readonly lastWaveAnswersMs: number;
  /** From the last upstream answer to the answer's end. */
  readonly afterLastAnswerMs: number;
  readonly waves: number;
}

type Mark = { readonly at: number; readonly kind: 'call' | 'answer' };

let arrivedAt: number | undefined;
let marks: Mark[] = [];
let finished: RequestPhases | undefined;

/** Starts marking: the request that arrives next, and the upstream calls it makes. */
export function markRequests(): void {
  subscribe('http.server.request.start', () => {
    arrivedAt = performance.now();
    marks = [];
  });
  subscribe('undici:request:create', () => {
    if (arrivedAt !== undefined) marks.push({ at: performance.now(), kind: 'call' });
  });
  subscribe('undici:request:trailers', () => {
    if (arrivedAt !== undefined) marks.push({ at: performance.now(), kind: 'answer' });
  });
  subscribe('http.server.response.finish', () => {
    if (arrivedAt !== undefined) finished = phasesOf(arrivedAt, marks, performance.now());
    arrivedAt = undefined;
  });
}

/** The phases of the last request answered; undefined when it made no upstream call. */
export const lastPhases = (): RequestPhases | undefined => finished;

/**
 * A call that leaves after an answer has come in since the wave began starts a new wave: the
 * answer released it.
 */
function phasesOf(
  arrived: number,
  marks: readonly Mark[],
  ended: number,
): RequestPhases | undefined {
  const first = marks.find((mark) => mark.kind === 'call');
  const last = marks.findLast((mark) => mark.kind === 'answer');
  if (first === undefined || last === undefined) return undefined;
  let waves = 1;
  let betweenWavesMs = 0;
  let lastAnswer: number | undefined;
  let waveAnswers: number[] = [];
  for (const mark of marks) {
    if (mark.kind === 'answer') {
      lastAnswer = mark.at;
      waveAnswers.push(mark.at);
    } else if (waveAnswers.length > 0 && lastAnswer !== undefined) {
      waves += 1;
      betweenWavesMs += mark.at - lastAnswer;
      waveAnswers = [];
    }
  }
  return {
    beforeFirstCallMs: first.at - arrived,
    betweenWavesMs,
    lastWaveAnswersMs: waveAnswers.length === 0 ? 0 : waveAnswers.at(-1)! - waveAnswers[0]!,
    afterLastAnswerMs: ended - last.at,
    waves,
  };
}
