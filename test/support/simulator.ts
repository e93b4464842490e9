import { request as httpRequest } from 'node:http';
import {
  type Simulator,
  type SimulatorOptions,
  startSimulator,
} from '../../src/simulator/index.js';

export const DATA_DATE = '2026-11-21';
export const KEY = 'demo-key';

export async function start(options: SimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ dataDate: DATA_DATE, ...options });
}

export interface Reply<T = unknown> {
  status: number;
  contentType: string | null;
  body: T;
  headers: Headers;
}

export async function get<T = unknown>(
  sim: Simulator,
  path: string,
  key: string | null = KEY,
): Promise<Reply<T>> {
  const response = await fetch(`${sim.url}${path}`, {
    headers: key === null ? {} : { authorization: `Bearer ${key}` },
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: JSON.parse(text) as T,
    headers: response.headers,
  };
}

/** A GET through node:http, which sends the path byte for byte (fetch would resolve %2e%2e). */
export function rawGet(
  sim: Simulator,
  path: string,
  key: string | null = KEY,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${sim.url}/`,
      { path, headers: key === null ? {} : { authorization: `Bearer ${key}` } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}
