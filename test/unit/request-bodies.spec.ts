import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type BodyRead, RequestBodies } from '../../src/server/memory/request-bodies.js';

/** A server whose every request's body is read by `bodies`; each read is reported. */
async function serverReading(bodies: RequestBodies) {
  const reads: BodyRead[] = [];
  const waiting: ((read: BodyRead) => void)[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void bodies.read(req, res, Number(req.headers['content-length'])).then((read) => {
      reads.push(read);
      waiting.shift()?.(read);
      if (read.kind === 'body') res.end(`read ${read.body.length}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    nextRead: () => new Promise<BodyRead>((resolve) => waiting.push(resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Sends a request announcing `announced` bytes, then `sent` of them, and leaves it open. */
function send(port: number, announced: number, sent: string) {
  const socket = connect(port, '127.0.0.1');
  socket.write(
    `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${announced}\r\n\r\n${sent}`,
  );
  return socket;
}

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Bodies bounded at `maxBytes`, and a server that reads each request's body with them. */
async function bodiesBehindAServer(maxBytes: number) {
  const bodies = new RequestBodies(maxBytes);
  const server = await serverReading(bodies);
  closers.push(server.close);
  return { bodies, server };
}

describe('RequestBodies', () => {
  it('reads a whole body, holds its bytes until the answer is out, then lets them go', async () => {
    const { bodies, server } = await bodiesBehindAServer(1024);
    const read = server.nextRead();
    const socket = send(server.port, 11, '{"query":1}');
    const answered = new Promise<string>((resolve) =>
      socket.once('data', (data) => resolve(String(data))),
    );
    expect(await read).toEqual({ kind: 'body', body: Buffer.from('{"query":1}') });
    expect(await answered).toContain('read 11');
    socket.destroy();
    await until(() => bodies.heldBytes === 0);
  });

  it('gives up a body whose client goes away before sending it all, and lets its bytes go', async () => {
    const { bodies, server } = await bodiesBehindAServer(1024);
    const read = server.nextRead();
    const socket = send(server.port, 100, '{"query"');
    await until(() => bodies.heldBytes === 8);
    socket.destroy();
    expect(await read).toEqual({ kind: 'gone' });
    await until(() => bodies.heldBytes === 0);
  });

  it('refuses a body that would hold more than its bound, and keeps the bodies it holds', async () => {
    const { bodies, server } = await bodiesBehindAServer(16);
    const first = send(server.port, 100, '0123456789');
    await until(() => bodies.heldBytes === 10);
    const refused = server.nextRead();
    const second = send(server.port, 10, '0123456789');
    expect(await refused).toEqual({ kind: 'overloaded' });
    expect(bodies.heldBytes).toBe(10);
    first.destroy();
    second.destroy();
    await until(() => bodies.heldBytes === 0);
  });
});
