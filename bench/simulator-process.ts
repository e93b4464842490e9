/** The upstream simulator in its own process, with latency, as the bench's upstream. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

export interface SimulatorProcess {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startSimulatorProcess(
  latencyMs: number,
  apiKey: string,
  handshakeMs = 0,
): Promise<SimulatorProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/simulator/main.ts'],
    {
      env: {
        ...process.env,
        SIMULATOR_PORT: '0',
        SIMULATOR_LATENCY_MS: String(latencyMs),
        SIMULATOR_HANDSHAKE_MS: String(handshakeMs),
        SIMULATOR_API_KEYS: apiKey,
        SIMULATOR_DAILY_LIMIT: String(Number.MAX_SAFE_INTEGER),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  // Keep reading stdout for the child's whole life: a closed pipe would kill it on its next log line.
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += String(chunk);
      const match = /listening on (http:\/\/\S+)\/api\/v1/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', () => reject(new Error(`the simulator did not start: ${output}`)));
  });
  return {
    url,
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
