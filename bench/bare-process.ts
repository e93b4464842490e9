/**
 * The yardstick: a bare node:http server that answers every request with the
 * exact bytes (status, headers, body, framing) the gateway answered for the
 * query under measurement, in a process of its own like the gateway's. It reads each
 * request body before answering, as any server that looks at its request must;
 * nothing else. `serve` says which bytes to send from now on.
 *
 * With BARE_READS_REQUEST=1 it also reads the request as the gateway must before it can
 * answer: the headers a hit depends on (node:http builds its headers object at the first
 * read), and the body's bytes, gathered from `data` events in an asynchronous handler.
 */
import { once } from 'node:events';
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CapturedAnswer } from './http-capture.js';
import { answerQuestions } from './ipc.js';

let status = 200;
let headers: OutgoingHttpHeaders = {};
let body = Buffer.alloc(0);

const READ_HEADERS = [
  'authorization',
  'content-type',
  'content-length',
  'accept',
  'accept-encoding',
  'origin',
];

const server =
  process.env.BARE_READS_REQUEST === '1'
    ? createServer(async (request, response) => {
        const read = READ_HEADERS.map((name) => request.headers[name]);
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        await once(request, 'end');
        const length = chunks.length === 1 ? chunks[0]!.length : Buffer.concat(chunks).length;
        response.writeHead(String(length) === read[2] ? status : 400, headers);
        response.end(body);
      })
    : createServer((request, response) => {
        request.resume();
        request.once('end', () => {
          response.writeHead(status, headers);
          response.end(body);
        });
      });
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;

answerQuestions(
  async (question) => {
    if (question.type === 'url') return { url };
    if (question.type === 'serve') {
      const answer = question.answer as CapturedAnswer;
      status = answer.status;
      body = Buffer.from(answer.bodyBase64, 'base64');
      headers = answer.headers;
      return null;
    }
    throw new Error(`unknown question ${question.type}`);
  },
  async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  },
);
