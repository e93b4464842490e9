/**
 * Which upgrade requests become WebSockets: those to the GraphQL endpoint,
 * while the gateway is not draining. Any other is answered in plain HTTP and
 * its socket closed, as node:http does when nobody listens for upgrades.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { urlPath } from '../../url-path.js';

type Upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

export function withGraphQLPathOnly(
  graphqlEndpoint: string,
  upgrade: Upgrade,
  draining: () => boolean,
): Upgrade {
  return (request, socket, head) => {
    const path = urlPath(request.url ?? '');
    if (path !== graphqlEndpoint) return refuse(socket, '404 Not Found');
    // A replica on its way out takes no new socket: the client's retry finds another.
    if (draining()) return refuse(socket, '503 Service Unavailable');
    upgrade(request, socket, head);
  };
}

function refuse(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
