/**
 * Connections to the upstream opened ahead of the calls that will need them.
 *
 * A page that fans out (the top 20 artists, then each one's history) needs
 * twenty connections the moment its first answer lands. Opened only then, each
 * costs a handshake after that answer (a round trip for TCP, another for TLS)
 * before its call can leave, and the upstream accepts them one after another.
 * Opened while the first call is in flight, they are ready when it lands.
 *
 * A connection is not a call: it costs the day's budget nothing. A warm
 * connection no call takes is closed after `idleMs`; one undici takes becomes
 * its own, kept alive (or not) like any other.
 */
import type { Socket } from 'node:net';
import { buildConnector } from 'undici';

export interface WarmConnectionsOptions {
  readonly connectTimeoutMs: number;
  /** How long a warm connection waits for a call before it is closed. */
  readonly idleMs: number;
  /** A Unix socket every connection goes to, whatever the origin's host and port. */
  readonly socketPath?: string;
}

export class WarmConnections {
  readonly #connect: buildConnector.connector;
  readonly #target: buildConnector.Options;
  readonly #idleMs: number;
  /** Connected, waiting for a call; each with what stops watching it once a call takes it. */
  readonly #ready = new Map<Socket, () => void>();
  /** Connections being opened ahead, not yet promised to a call. */
  #opening = 0;
  /** Calls that asked while warm connections were being opened: each takes the next one to connect. */
  readonly #waiting: buildConnector.Callback[] = [];
  #closed = false;

  constructor(origin: URL, { connectTimeoutMs, idleMs, socketPath }: WarmConnectionsOptions) {
    this.#connect = buildConnector({ timeout: connectTimeoutMs, socketPath });
    this.#idleMs = idleMs;
    // What undici's own client passes for this origin: the port may be empty (the scheme's
    // default), and the TLS server name comes from the host.
    this.#target = {
      hostname: origin.hostname.replace(/^\[(.*)\]$/, '$1'),
      host: origin.host,
      protocol: origin.protocol,
      port: origin.port,
    };
  }

  /** Undici's connector: a warm connection when one is ready or on its way, a new one otherwise. */
  readonly connector: buildConnector.connector = (options, callback) => {
    const socket = this.#takeReady();
    if (socket !== undefined) {
      // Undici expects the answer later, as a real connect gives it.
      queueMicrotask(() => callback(null, socket));
    } else if (this.#opening > 0) {
      this.#opening -= 1;
      this.#waiting.push(callback);
    } else {
      this.#connect(options, callback);
    }
  };

  /** Opens connections until `count` are ready or on their way, for calls about to come. */
  warm(count: number): void {
    if (this.#closed) return;
    for (let wanted = count - this.#ready.size - this.#opening; wanted > 0; wanted--) {
      this.#open();
    }
  }

  /** Warm connections ready or being opened, not yet taken by a call. */
  get spare(): number {
    return this.#ready.size + this.#opening;
  }

  close(): void {
    this.#closed = true;
    for (const [socket, release] of this.#ready) {
      release();
      socket.destroy();
    }
    this.#ready.clear();
  }

  #open(): void {
    this.#opening += 1;
    this.#connect(this.#target, (error, socket) => {
      const waiting = this.#waiting.shift();
      if (waiting !== undefined) {
        // A call counted on this one: it gets the socket, or the error it would have met itself.
        if (error === null) waiting(null, socket);
        else waiting(error, null);
        return;
      }
      this.#opening -= 1;
      if (error !== null) return; // The next call connects, and reports, on its own.
      if (this.#closed) socket.destroy();
      else this.#keep(socket);
    });
  }

  #keep(socket: Socket): void {
    const release = () => {
      clearTimeout(idle);
      socket.off('close', drop).off('end', drop).off('error', drop);
    };
    // Closed by the upstream, failed, or unused for too long: no call will get it.
    const drop = () => {
      release();
      this.#ready.delete(socket);
      socket.destroy();
    };
    const idle = setTimeout(drop, this.#idleMs);
    idle.unref();
    socket.once('close', drop).once('end', drop).once('error', drop);
    this.#ready.set(socket, release);
  }

  #takeReady(): Socket | undefined {
    for (const [socket, release] of this.#ready) {
      this.#ready.delete(socket);
      release();
      if (!socket.destroyed && socket.writable) return socket;
      socket.destroy();
    }
    return undefined;
  }
}
