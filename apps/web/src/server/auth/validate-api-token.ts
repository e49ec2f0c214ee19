import { authenticateApiToken } from "@cyclium/core/console";
import type { Queryable } from "@cyclium/core/console";
import type { TPrincipal } from "./principal";

/** `Authorization: Bearer <token>` → the token's principal, or null (unknown, revoked, malformed). */
export function readBearerToken(headers: Headers): string | null {
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]{16,256})\s*$/i.exec(
    headers.get("authorization") ?? "",
  );
  return match?.[1] ?? null;
}

export async function validateApiToken(options: {
  db: Queryable;
  token: string;
}): Promise<TPrincipal | null> {
  const token = await authenticateApiToken(options);
  return token === null ? null : { kind: "token", ...token };
}
