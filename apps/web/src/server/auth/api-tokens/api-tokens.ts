import type { Queryable } from "@cyclium/core/db";
import { CycliumError } from "@cyclium/core/errors";
import { ZRole, type TRole } from "../principal";
import { generateSecretToken, hashSecretToken } from "../secret-token";

/** Recognisable in logs and by secret scanners; the 256 random bits after it are the secret. */
export const API_TOKEN_PREFIX = "cyc_";

export interface TApiToken {
  id: string;
  name: string;
  role: TRole;
  createdBy: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  insertedAt: string;
}

interface ApiTokenRow {
  id: string;
  name: string;
  role: string;
  created_by_email: string | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
  inserted_at: Date;
}

const COLUMNS = `t.id, t.name, t.role, t.last_used_at, t.revoked_at, t.inserted_at,
  (SELECT email FROM cyclium_users u WHERE u.id = t.created_by) AS created_by_email`;

function toApiToken(row: ApiTokenRow): TApiToken {
  return {
    id: row.id,
    name: row.name,
    role: ZRole.parse(row.role),
    createdBy: row.created_by_email,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
    insertedAt: row.inserted_at.toISOString(),
  };
}

export async function listApiTokens(options: { db: Queryable }): Promise<TApiToken[]> {
  const { rows } = await options.db.query<ApiTokenRow>(
    `SELECT ${COLUMNS} FROM cyclium_api_tokens t
      ORDER BY t.revoked_at IS NOT NULL, t.inserted_at DESC`,
  );
  return rows.map(toApiToken);
}

/** The plain token is returned once, here; only its SHA-256 is stored. */
export async function createApiToken(options: {
  db: Queryable;
  name: string;
  role: TRole;
  createdBy: string | null;
}): Promise<{ token: string; apiToken: TApiToken }> {
  const token = generateSecretToken(API_TOKEN_PREFIX);
  const { rows } = await options.db.query<ApiTokenRow>(
    `WITH t AS (
       INSERT INTO cyclium_api_tokens (name, token_hash, role, created_by) VALUES ($1, $2, $3, $4)
       RETURNING *)
     SELECT ${COLUMNS} FROM t`,
    [options.name, hashSecretToken(token), options.role, options.createdBy],
  );
  return { token, apiToken: toApiToken(rows[0] as ApiTokenRow) };
}

export async function revokeApiToken(options: {
  db: Queryable;
  tokenId: string;
}): Promise<TApiToken> {
  const { rows } = await options.db.query<ApiTokenRow>(
    `WITH t AS (
       UPDATE cyclium_api_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1
       RETURNING *)
     SELECT ${COLUMNS} FROM t`,
    [options.tokenId],
  );
  const row = rows[0];
  if (row === undefined) throw new CycliumError("not_found", "No such API token.");
  return toApiToken(row);
}
