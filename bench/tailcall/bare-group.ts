/**
 * The transport alone, as ours runs it: a node:cluster group of one worker per core (as
 * `WORKERS=auto` runs ours here), each a bare node:http server answering every request with the
 * exact bytes ours answered (BARE_ANSWER: a JSON file of bench/http-capture.ts's
 * CapturedAnswer) on BARE_PORT. Each reads the request body before answering, as any server
 * that looks at its request must; nothing else.
 */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import type { CapturedAnswer } from '../http-capture.js';

if (cluster.isPrimary) {
  for (let worker = 0; worker < availableParallelism(); worker++) cluster.fork();
} else {
  const answer = JSON.parse(readFileSync(process.env.BARE_ANSWER!, 'utf8')) as CapturedAnswer;
  const body = Buffer.from(answer.bodyBase64, 'base64');
  createServer((request, response) => {
    request.resume();
    request.once('end', () => {
      response.writeHead(answer.status, answer.headers);
      response.end(body);
    });
  }).listen(Number(process.env.BARE_PORT), '127.0.0.1');
}
