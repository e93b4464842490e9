import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/index.js';

export const DATA_DATE = '2026-11-21';
export const KEY = 'demo-key';

export async function start(options: SimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ dataDate: DATA_DATE, ...options });
}

export interface Reply<T = unknown> { status: number; contentType: string | null; body: T; headers: Headers }

export async function get<T = unknown>(sim: Simulator, path: string, key: string | null = KEY): Promise<Reply<T>> {
  const response = await fetch(`${sim.url}${path}`, { headers: key === null ? {} : { authorization: `Bearer ${key}` } });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type'), body: JSON.parse(text) as T, headers: response.headers };
}
