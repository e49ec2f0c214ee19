import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { parseWebEnv } from "../../env";
import {
  clientAddress,
  NO_TRUSTED_PROXIES,
  parseTrustedProxies,
  PEER_ADDRESS_HEADER,
} from "./client-address";
import { installPeerAddressHeader } from "./peer-address";
import { readRequestInfo } from "./request-info";

const headers = (values: Record<string, string>) => new Headers(values);

describe("clientAddress without a trusted proxy (the default)", () => {
  it("ignores X-Forwarded-For and X-Real-IP: the socket address is the client", () => {
    const request = headers({
      [PEER_ADDRESS_HEADER]: "203.0.113.7",
      "x-forwarded-for": "198.51.100.1, 198.51.100.2",
      "x-real-ip": "198.51.100.3",
    });
    expect(clientAddress(request, NO_TRUSTED_PROXIES)).toBe("203.0.113.7");
    expect(readRequestInfo(request, NO_TRUSTED_PROXIES).ip).toBe("203.0.113.7");
  });

  it("is unknown, not the forged header, when the peer address is missing", () => {
    expect(clientAddress(headers({ "x-forwarded-for": "198.51.100.1" }), NO_TRUSTED_PROXIES)).toBe(
      null,
    );
  });

  it("ignores forwarding headers from a peer that is not a configured proxy", () => {
    const trusted = parseTrustedProxies(["10.0.0.0/8"]);
    const request = headers({
      [PEER_ADDRESS_HEADER]: "203.0.113.7",
      "x-forwarded-for": "198.51.100.1",
    });
    expect(clientAddress(request, trusted)).toBe("203.0.113.7");
  });

  it("unwraps an IPv4-mapped IPv6 socket address", () => {
    const request = headers({ [PEER_ADDRESS_HEADER]: "::ffff:127.0.0.1" });
    expect(clientAddress(request, NO_TRUSTED_PROXIES)).toBe("127.0.0.1");
  });
});

describe("clientAddress behind a trusted proxy", () => {
  const trusted = parseTrustedProxies(["10.0.0.1", "10.1.0.0/16", "fd00::/8"]);

  it("honours X-Forwarded-For: the rightmost hop that is not a trusted proxy", () => {
    const request = headers({
      [PEER_ADDRESS_HEADER]: "::ffff:10.0.0.1",
      // The client wrote the first entry itself; the proxy appended the real one.
      "x-forwarded-for": "198.51.100.99, 203.0.113.7, 10.1.2.3",
    });
    expect(clientAddress(request, trusted)).toBe("203.0.113.7");
    expect(readRequestInfo(request, trusted).ip).toBe("203.0.113.7");
  });

  it("stops at garbage in the chain instead of believing what is left of it", () => {
    const request = headers({
      [PEER_ADDRESS_HEADER]: "10.0.0.1",
      "x-forwarded-for": "198.51.100.1, not-an-address",
    });
    expect(clientAddress(request, trusted)).toBe("10.0.0.1");
  });

  it("answers the proxy itself when there is no forwarding header", () => {
    expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: "fd00::5" }), trusted)).toBe("fd00::5");
  });
});

describe("CYCLIUM_TRUSTED_PROXIES in the env module", () => {
  const base = { DATABASE_URL: "postgres://localhost/x" };

  it("defaults to none", () => {
    expect(parseWebEnv(base).CYCLIUM_TRUSTED_PROXIES.size).toBe(0);
  });

  it("takes IPs and CIDR blocks separated by commas or spaces", () => {
    const env = parseWebEnv({ ...base, CYCLIUM_TRUSTED_PROXIES: "10.0.0.1, 172.16.0.0/12 ::1" });
    expect(env.CYCLIUM_TRUSTED_PROXIES.has("172.20.1.1")).toBe(true);
    expect(env.CYCLIUM_TRUSTED_PROXIES.has("::1")).toBe(true);
    expect(env.CYCLIUM_TRUSTED_PROXIES.has("10.0.0.2")).toBe(false);
  });

  it.each(["proxy.internal", "10.0.0.0/33", "10.0.0.1/8/1", "::1/200", "10.0.0/8"])(
    "refuses %s, naming the variable",
    (value) => {
      expect(() => parseWebEnv({ ...base, CYCLIUM_TRUSTED_PROXIES: value })).toThrow(
        /CYCLIUM_TRUSTED_PROXIES/,
      );
    },
  );
});

describe("installPeerAddressHeader", () => {
  it("overwrites a client-sent peer header with the socket address", async () => {
    installPeerAddressHeader();
    const server = http.createServer((request, response) => {
      response.end(String(request.headers[PEER_ADDRESS_HEADER]));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/`, {
        headers: { [PEER_ADDRESS_HEADER]: "198.51.100.1", "x-forwarded-for": "198.51.100.1" },
        signal: AbortSignal.timeout(5000),
      });
      expect(await response.text()).toBe("127.0.0.1");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
