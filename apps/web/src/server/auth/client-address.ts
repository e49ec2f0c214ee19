import { BlockList, isIP } from "node:net";

/**
 * The client address the sign-in throttle and the audit log use (issue 13: a client-chosen
 * `X-Forwarded-For` reset the throttle and was written as the audit row's IP).
 *
 * `next start` keeps an `X-Forwarded-For` the client sent and only fills it with the socket's
 * address when it is absent, so the header alone can never be told from a forgery. The socket
 * address therefore travels in `PEER_ADDRESS_HEADER`, which `installPeerAddressHeader` sets on
 * every request, overwriting whatever the client put there. Forwarding headers are honoured only
 * when that peer is a configured trusted proxy (`CYCLIUM_TRUSTED_PROXIES`, default none): the
 * client is then the rightmost hop that is not itself a trusted proxy, since every hop left of a
 * trusted proxy's own entry may have been written by the client.
 */
export const PEER_ADDRESS_HEADER = "x-cyclium-peer-address";

export interface TTrustedProxies {
  /** True when `address` is one of the configured proxies. */
  has(address: string): boolean;
  readonly size: number;
}

/** Strips the IPv4-mapped prefix (`::ffff:10.0.0.1`) and the brackets or port some hops add. */
export function normalizeAddress(text: string): string | null {
  let address = text.trim();
  if (address.startsWith("[")) address = address.slice(1, address.indexOf("]"));
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(address)) address = address.replace(/:\d+$/, "");
  if (address.toLowerCase().startsWith("::ffff:") && isIP(address.slice(7)) === 4) {
    address = address.slice(7);
  }
  return isIP(address) === 0 ? null : address;
}

/**
 * Parses `10.0.0.1, 10.1.0.0/16, fd00::/8`. Throws with the bad entry, for the env module.
 */
export function parseTrustedProxies(list: readonly string[]): TTrustedProxies {
  const blocks = new BlockList();
  for (const entry of list) {
    const [rawAddress = "", prefix, ...rest] = entry.trim().split("/");
    const address = normalizeAddress(rawAddress);
    const family = address === null ? 0 : isIP(address);
    if (address === null || rest.length > 0 || family === 0) {
      throw new Error(`"${entry}" is not an IP address or CIDR block`);
    }
    const type = family === 4 ? "ipv4" : "ipv6";
    if (prefix === undefined) {
      blocks.addAddress(address, type);
      continue;
    }
    const bits = Number(prefix);
    if (!/^\d{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128)) {
      throw new Error(`"${entry}" has an invalid prefix length`);
    }
    blocks.addSubnet(address, bits, type);
  }
  const size = list.length;
  return {
    size,
    has: (text) => {
      const address = normalizeAddress(text);
      if (address === null) return false;
      return blocks.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
    },
  };
}

export const NO_TRUSTED_PROXIES: TTrustedProxies = { size: 0, has: () => false };

/**
 * The address of the party that sent this request, or null when unknown (a test, or a server
 * started without the peer hook). Forwarding headers count only behind a trusted proxy.
 */
export function clientAddress(headers: Headers, trusted: TTrustedProxies): string | null {
  const peer = normalizeAddress(headers.get(PEER_ADDRESS_HEADER) ?? "");
  if (peer === null || trusted.size === 0 || !trusted.has(peer)) return peer;
  const hops = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter((hop) => hop !== "");
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = normalizeAddress(hops[index] ?? "");
    // Garbage where an address should be: the chain cannot be followed past it, so the last
    // trustworthy party is the proxy that handed it over.
    if (hop === null) return peer;
    if (!trusted.has(hop)) return hop;
  }
  // Every hop is one of ours (a health check from inside): the leftmost one is the origin.
  return normalizeAddress(hops[0] ?? "") ?? peer;
}
