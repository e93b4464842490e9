/**
 * The gateway as an operator runs it: `npm start` in a process group of its own, its stdout and
 * stderr on pipes the test holds (and may pause or close), signalled from outside.
 *
 * It runs in the checkout but keeps none of the checkout's state: without Redis (unless a test
 * sets REDIS_URL) and with a BUDGET_FILE of its own in a temporary folder, removed by `kill()`
 * once the whole group is gone. The default, `.gateway/budget.json`, is the operator's: a test
 * that counted its calls there would leave the next `npm start` with part of its day spent.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const POLL_MS = 10;
/** How long `kill()` waits for the group to be gone after SIGKILL before removing its folder anyway. */
const GONE_AFTER_KILL_MS = 10_000;

export interface GatewayProcess {
  /** The gateway's GraphQL endpoint. */
  readonly url: string;
  /** npm's pid, which is also the process group's id. */
  readonly pid: number;
  /** Everything read from stdout and stderr so far. */
  output(): string;
  /** What was read from stdout alone: its lines are never cut by a write to stderr. */
  stdout(): string;
  /** What was read from stderr alone. */
  stderr(): string;
  /** The gateway's node process (npm's child). */
  gatewayPid(): number;
  /** npm's exit code, once it has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Stops reading stdout: the pipe fills up and the gateway's writes to it stall. */
  pauseReader(): void;
  resumeReader(): void;
  /** Resolves once stdout reaches its end: every process holding it has exited. */
  readonly outputEnded: Promise<void>;
  /** Closes the test's read ends of stdout and stderr; once resolved, the gateway's next write gets EPIPE. */
  closeReader(): Promise<void>;
  signalGroup(signal: NodeJS.Signals): void;
  /** Milliseconds from `since` (performance.now()) until no process of the group is left, or null past `limitMs`. */
  groupGoneWithin(since: number, limitMs: number): Promise<number | null>;
  /**
   * Test clean-up: whatever is left of the group gets SIGKILL; resolves once the group is gone
   * and the process's temporary folder (its BUDGET_FILE) is removed.
   */
  kill(): Promise<void>;
}

/** Builds once before processes are started, so that their `prestart` finds nothing to do. */
export function buildOnce(): void {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'ignore' });
}

export async function startNpm(env: Record<string, string>): Promise<GatewayProcess> {
  const folder = mkdtempSync(join(tmpdir(), 'gateway-npm-start-'));
  const child: ChildProcess = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      SIMULATOR_ARTISTS: '40',
      // The plan paces the day by the wall clock; these tests must not depend on the hour they run at.
      BUDGET_PLAN: 'false',
      // No state shared with the checkout's own gateway: not a Redis the shell may name, nor its budget file.
      REDIS_URL: '',
      BUDGET_FILE: join(folder, 'budget.json'),
      ...env,
    },
  });
  const pid = child.pid;
  if (pid === undefined || child.stdout === null || child.stderr === null) {
    rmSync(folder, { recursive: true, force: true });
    throw new Error('npm start did not spawn');
  }
  const { stdout, stderr } = child;
  let text = '';
  let outText = '';
  let errText = '';
  stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    outText += chunk.toString();
  });
  stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    errText += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  const groupAlive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  /** SIGKILL to what is left, then, once nothing of the group can write to it, the folder goes. */
  const kill = async () => {
    if (groupAlive()) process.kill(-pid, 'SIGKILL');
    const since = performance.now();
    while (groupAlive() && performance.now() - since < GONE_AFTER_KILL_MS)
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    rmSync(folder, { recursive: true, force: true });
  };

  const listening = new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /GraphQL \+ GraphiQL\s+(\S+)/.exec(text);
      if (match?.[1] === undefined) return;
      stdout.off('data', onData);
      resolve(match[1].replace('localhost', '127.0.0.1'));
    };
    stdout.on('data', onData);
    void exited.then(({ code }) =>
      reject(new Error(`npm start exited (${code}) before listening:\n${text}`)),
    );
  });
  let url: string;
  try {
    url = await listening;
  } catch (error) {
    await kill();
    throw error;
  }

  return {
    url,
    pid,
    exited,
    output: () => text,
    stdout: () => outText,
    stderr: () => errText,
    gatewayPid() {
      const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], {
        encoding: 'utf8',
      })
        .trim()
        .split(/\s+/);
      if (children.length !== 1 || children[0] === '')
        throw new Error(`npm has ${children.length} children: ${children.join(' ')}`);
      return Number(children[0]);
    },
    outputEnded: new Promise<void>((resolve) => stdout.once('end', resolve)),
    pauseReader: () => stdout.pause(),
    resumeReader: () => stdout.resume(),
    async closeReader() {
      // The descriptors are closed when the streams emit 'close', not when destroy() returns.
      const closed = [stdout, stderr].map(
        (stream) => new Promise((resolve) => stream.once('close', resolve)),
      );
      stdout.destroy();
      stderr.destroy();
      await Promise.all(closed);
    },
    signalGroup: (signal) => process.kill(-pid, signal),
    async groupGoneWithin(since, limitMs) {
      while (groupAlive()) {
        if (performance.now() - since > limitMs) return null;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      return Math.round(performance.now() - since);
    },
    kill,
  };
}

/** A GraphQL POST's raw outcome: status and body text, or the network error. */
export async function post(
  url: string,
  query: string,
): Promise<{ status: number; text: string } | Error> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    return error as Error;
  }
}

/** The HTTP status of a POST, or the network error's message. */
export async function statusOf(url: string, query: string): Promise<number | string> {
  const outcome = await post(url, query);
  return outcome instanceof Error ? outcome.message : outcome.status;
}
