/**
 * What every GraphQL answer must be, whatever was sent: 200 or 400, data or
 * errors, each error with a message and a stable code (never the masked
 * INTERNAL_SERVER_ERROR), and nothing of the gateway's secrets or insides.
 */
import { expect } from 'vitest';
import type { GraphQLResponse } from './stack.js';

/** `secrets`: text that must never reach a client (the server key, the upstream's address). */
export function expectWellFormed(response: GraphQLResponse, secrets: readonly string[]): void {
  expect([200, 400]).toContain(response.status);
  const { body } = response;
  expect(body.data !== undefined || body.errors !== undefined).toBe(true);
  for (const error of body.errors ?? []) {
    expect(typeof error.message).toBe('string');
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.extensions?.code).toEqual(expect.any(String));
    expect(error.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
  }
  const raw = JSON.stringify(body);
  for (const secret of secrets) expect(raw).not.toContain(secret);
  expect(raw).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
}
