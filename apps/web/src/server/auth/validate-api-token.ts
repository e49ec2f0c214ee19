import type { Queryable } from "@cyclium/core/db";
import { ZRole, type TPrincipal } from "./principal";
import { hashSecretToken } from "./secret-token";

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
  // last_used_at is refreshed in the same statement; a minute's precision is plenty and keeps a
  // busy automation from writing on every call.
  const { rows } = await options.db.query<{ id: string; name: string; role: string }>(
    `UPDATE cyclium_api_tokens
        SET last_used_at = CASE
              WHEN last_used_at IS NULL OR last_used_at < now() - interval '1 minute' THEN now()
              ELSE last_used_at END
      WHERE token_hash = $1 AND revoked_at IS NULL
      RETURNING id, name, role`,
    [hashSecretToken(options.token)],
  );
  const row = rows[0];
  if (row === undefined) return null;
  const role = ZRole.safeParse(row.role);
  return role.success ? { kind: "token", id: row.id, name: row.name, role: role.data } : null;
}
