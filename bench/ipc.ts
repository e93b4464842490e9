/**
 * Question and answer over a child process's IPC channel. The bench runs each
 * server it measures (the gateway, the bare server) in a process of its own,
 * so that the CPU time a process reports is that server's alone and never the
 * load generator's; this is how the bench tells them what to do and asks them
 * what they spent.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { constants, PerformanceObserver } from 'node:perf_hooks';

/** What a server process has spent since it started. */
export interface Usage {
  /** User plus system CPU time of the whole process (every thread, GC included), in microseconds. */
  readonly cpuMicros: number;
  /** Largest resident set size so far, in bytes. */
  readonly peakRssBytes: number;
  /**
   * Time in young-generation collections (scavenges) so far, in milliseconds: what requests
   * leave alive past their answer shows here first (every scavenge copies it, then promotes it).
   */
  readonly scavengeMs: number;
}

export type Question = { readonly type: string } & Record<string, unknown>;

interface Envelope {
  /** Absent on the one message a child sends unasked: that it listens (a question sent earlier would be lost). */
  readonly id?: number;
  readonly answer?: unknown;
  readonly error?: string;
}

let scavengeMs = 0;
/** Counts this process's scavenges from the first question on. */
const scavenges = new PerformanceObserver((entries) => {
  for (const entry of entries.getEntries())
    if (
      (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR
    )
      scavengeMs += entry.duration;
});

export function usage(): Usage {
  const cpu = process.cpuUsage();
  return {
    cpuMicros: cpu.user + cpu.system,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    scavengeMs,
  };
}

/**
 * Child side: answers each question with `answer`, every process also answering `usage`;
 * `stop` ends the process once `onStop` has run.
 */
export function answerQuestions(
  answer: (question: Question) => Promise<unknown>,
  onStop: () => Promise<void>,
): void {
  if (process.send === undefined)
    throw new Error('this script is started by bench/run.ts, with an IPC channel');
  scavenges.observe({ entryTypes: ['gc'] });
  const reply = (envelope: Envelope, then?: () => void) =>
    process.send!(envelope, undefined, {}, then);
  process.on('message', (raw: { id: number; question: Question }) => {
    const { id, question } = raw;
    const answered =
      question.type === 'usage'
        ? Promise.resolve(usage())
        : question.type === 'stop'
          ? onStop()
          : answer(question);
    answered.then(
      (value) => {
        // Once stopped, nothing of this process is needed: leave even if a timer or socket lingers.
        reply(
          { id, answer: value ?? null },
          question.type === 'stop' ? () => process.exit(0) : undefined,
        );
      },
      (error: unknown) =>
        reply({
          id,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }),
    );
  });
  reply({});
}

/** Parent side: one server process of the bench. */
export class ServerProcess {
  private nextId = 0;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();

  private constructor(
    private readonly child: ChildProcess,
    name: string,
  ) {
    child.on('message', (envelope: Envelope) => {
      if (envelope.id === undefined) return;
      const waiting = this.pending.get(envelope.id);
      if (waiting === undefined) return;
      this.pending.delete(envelope.id);
      if (envelope.error === undefined) waiting.resolve(envelope.answer);
      else waiting.reject(new Error(`${name}: ${envelope.error}`));
    });
    child.once('exit', (code) => {
      for (const waiting of this.pending.values())
        waiting.reject(new Error(`${name} exited (code ${code})`));
      this.pending.clear();
    });
  }

  /**
   * Starts `script` (a TypeScript file, run through tsx) with `env` added to this process's
   * environment; its stdout is this one's, or discarded (a request log nobody reads here).
   */
  static async start(
    script: string,
    name: string,
    env: Record<string, string> = {},
    stdout: 'inherit' | 'ignore' = 'inherit',
  ): Promise<ServerProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', stdout, 'inherit', 'ipc'],
    });
    const started = new ServerProcess(child, name);
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`${name} exited (code ${code}) before it listened`));
      child.once('exit', onExit);
      child.once('message', () => {
        child.off('exit', onExit);
        resolve();
      });
    });
    return started;
  }

  /** The child's process id. */
  get pid(): number {
    return this.child.pid!;
  }

  ask<T>(question: Question): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ id, question });
    });
  }

  usage(): Promise<Usage> {
    return this.ask<Usage>({ type: 'usage' });
  }

  async stop(): Promise<void> {
    const exited = once(this.child, 'exit');
    await this.ask({ type: 'stop' });
    await exited;
  }
}
