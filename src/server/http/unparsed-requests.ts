/**
 * Requests Node's HTTP parser refuses before the gateway sees them (a URL
 * and headers over `http.maxHeaderSize`, two Content-Length headers, bytes
 * that are not HTTP, a client too slow to send its request) get what every
 * other refusal gets: a JSON body in the gateway's error shape with a stable
 * code, not Node's bare status line. Then the connection closes, as Node
 * closes it: what follows on it cannot be framed.
 */
import { maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '../../error-codes.js';
import { errorBody } from '../../http-errors.js';

interface Refusal {
  readonly status: number;
  readonly reason: string;
  readonly code: ErrorCode;
  readonly message: string;
}

/** Node's own choice of status for each parser error (lib/_http_server.js `socketOnError`), with the gateway's code. */
function refusalOf(errorCode: string | undefined): Refusal {
  switch (errorCode) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        reason: 'Request Header Fields Too Large',
        code: 'REQUEST_HEADERS_TOO_LARGE',
        message: `The request line and headers exceed ${maxHeaderSize} bytes: send a long document in a POST body`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        status: 413,
        reason: 'Payload Too Large',
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The chunk extensions of the request body are too large',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        reason: 'Request Timeout',
        code: 'REQUEST_TIMEOUT',
        message: 'The request was not received in time',
      };
    default:
      return {
        status: 400,
        reason: 'Bad Request',
        code: 'BAD_REQUEST',
        message: 'The request is not valid HTTP/1.1',
      };
  }
}

/** The server's `clientError` listener. */
export function answerUnparsedRequest(error: Error & { code?: string }, socket: Duplex): void {
  // Node writes nothing either when the peer is gone or an answer on this connection has begun.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const { status, reason, code, message } = refusalOf(error.code);
  const body = errorBody(message, code);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
    () => socket.destroy(),
  );
}
