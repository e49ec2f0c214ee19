import http from "node:http";
import { PEER_ADDRESS_HEADER } from "./client-address";

const INSTALLED = Symbol.for("cyclium.peerAddressHeader");

/**
 * Stamps every incoming request with its socket's address in `PEER_ADDRESS_HEADER`, overwriting
 * any value the client sent. Route handlers only see a Web `Request`, which has no socket, and
 * `next start` keeps a client-sent `X-Forwarded-For` instead of the socket address: this is the
 * one trustworthy source of "who is on the other end of the TCP connection". Called from
 * instrumentation.ts, which runs in the process that owns the HTTP server, before it serves.
 */
export function installPeerAddressHeader(): void {
  const prototype = http.Server.prototype as http.Server & { [INSTALLED]?: true };
  if (prototype[INSTALLED]) return;
  prototype[INSTALLED] = true;
  type TEmit = (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- rebound with .apply below.
  const emit = prototype.emit as TEmit;
  const emitWithPeer: TEmit = function (event, ...args) {
    const request = args[0];
    if (event === "request" && request instanceof http.IncomingMessage) {
      const address = request.socket.remoteAddress;
      if (address === undefined) delete request.headers[PEER_ADDRESS_HEADER];
      else request.headers[PEER_ADDRESS_HEADER] = address;
    }
    return emit.apply(this, [event, ...args]);
  };
  prototype.emit = emitWithPeer as typeof prototype.emit;
}
