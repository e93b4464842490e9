/**
 * Requests Node's HTTP parser refuses before the gateway sees them get a
 * JSON body in the gateway's error shape with a stable code, and the
 * connection closes, as Node closes it. Sent as raw bytes: no HTTP client
 * sends them.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ timeouts: { headersMs: 400, requestMs: 800, checkEveryMs: 50 } });
});
afterAll(() => stack.close());

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Writes `parts` (each after the previous one is sent), then reads until the server closes the connection. */
function raw(...parts: string[]): Promise<RawAnswer> {
  const { port } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers: Object.fromEntries(
          lines.map((line) => {
            const colon = line.indexOf(':');
            return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
          }),
        ),
        body: text.slice(end + 4),
      });
    });
    for (const part of parts) socket.write(part);
  });
}

function expectRefusal(answer: RawAnswer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers.connection).toBe('close');
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  const body = JSON.parse(answer.body) as {
    errors: { message: string; extensions: { code: string } }[];
  };
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0]!.message).toEqual(expect.any(String));
  expect(body.errors[0]!.extensions).toEqual({ code });
}

describe('requests the HTTP parser refuses', () => {
  it('a URL and headers over 16 KB: 431 REQUEST_HEADERS_TOO_LARGE, no upstream call', async () => {
    const before = stack.upstreamCalls();
    const query = encodeURIComponent(`{ charts { name } } # ${'x'.repeat(17_000)}`);
    const answer = await raw(`GET /graphql?query=${query} HTTP/1.1\r\nHost: gateway\r\n\r\n`);
    expectRefusal(answer, 431, 'REQUEST_HEADERS_TOO_LARGE');
    expect(JSON.parse(answer.body).errors[0].message).toContain('POST');
    expect(stack.upstreamCalls()).toBe(before);
  });

  it('two Content-Length headers: 400 BAD_REQUEST', async () => {
    const body = '{"query":"{ charts { name } }"}';
    const answer = await raw(
      'POST /graphql HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\nContent-Length: ${body.length + 1}\r\n\r\n${body}`,
    );
    expectRefusal(answer, 400, 'BAD_REQUEST');
  });

  it('bytes that are not HTTP: 400 BAD_REQUEST', async () => {
    expectRefusal(await raw('\x16\x03\x01 hello\r\n\r\n'), 400, 'BAD_REQUEST');
  });

  it('a client too slow to send its headers, or its body, still gets 408, now as REQUEST_TIMEOUT', async () => {
    expectRefusal(
      await raw('GET /graphql?query=%7B__typename%7D HTTP/1.1\r\nHost: gateway\r\n'),
      408,
      'REQUEST_TIMEOUT',
    );
    expectRefusal(
      await raw(
        'POST /graphql HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100\r\n\r\n{"query":',
      ),
      408,
      'REQUEST_TIMEOUT',
    );
  });

  it('the gateway goes on serving', async () => {
    const answer = await stack.query('{ __typename }');
    expect(answer.body.data).toEqual({ __typename: 'Query' });
  });
});
