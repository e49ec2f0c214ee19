import type { Queryable } from "../../db/index";
import { CycliumError } from "../../errors/index";
import { isUserRole, parseUserRole } from "../users/user-row";
import type { UserRole } from "../users/insert-user";
import { generateSecretToken, hashSecretToken } from "./secret-token";
import type { ApiTokenModel } from "@cyclium/db/models";
import type { RowOf } from "../../db/row-of";
import { envOfTenant, tenantIdOf } from "../../triggers/tenant";

/** Recognisable in logs and by secret scanners; the 256 random bits after it are the secret. */
export const API_TOKEN_PREFIX = "cyc_";

export interface ApiToken {
  id: string;
  name: string;
  role: UserRole;
  /** REST tenants (envs) it may address, the unset env as `default`; empty: every tenant. */
  tenants: string[];
  createdBy: string | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  insertedAt: Date;
}

type ApiTokenRow = Pick<
  RowOf<ApiTokenModel>,
  "id" | "name" | "role" | "tenants" | "last_used_at" | "revoked_at" | "inserted_at"
> & { created_by_email: string | null };

const COLUMNS = `t.id, t.name, t.role, t.tenants, t.last_used_at, t.revoked_at, t.inserted_at,
  (SELECT email FROM cyclium_users u WHERE u.id = t.created_by) AS created_by_email`;

function toApiToken(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    role: parseUserRole(row.role),
    tenants: row.tenants,
    createdBy: row.created_by_email,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    insertedAt: row.inserted_at,
  };
}

export async function listApiTokens(options: { db: Queryable }): Promise<ApiToken[]> {
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
  role: UserRole;
  /** Limits the token to these tenants (envs); left out or empty, it reaches every env. */
  tenants?: readonly string[] | undefined;
  createdBy: string | null;
}): Promise<{ token: string; apiToken: ApiToken }> {
  const token = generateSecretToken(API_TOKEN_PREFIX);
  const tenants = normalizeTenants(options.tenants ?? []);
  const { rows } = await options.db.query<ApiTokenRow>(
    `WITH t AS (
       INSERT INTO cyclium_api_tokens (name, token_hash, role, created_by, tenants)
       VALUES ($1, $2, $3, $4, $5)
       RETURNING *)
     SELECT ${COLUMNS} FROM t`,
    [options.name, hashSecretToken(token), options.role, options.createdBy, tenants],
  );
  return { token, apiToken: toApiToken(rows[0] as ApiTokenRow) };
}

export async function revokeApiToken(options: {
  db: Queryable;
  tokenId: string;
}): Promise<ApiToken> {
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

/**
 * The token behind a bearer secret, or null (unknown, revoked, or made by an admin who is now
 * disabled: a token acts for its creator, so it stops with them, and works again if they are
 * enabled again; a token whose creator was deleted or made by the CLI has no account to follow).
 * last_used_at is refreshed in
 * the same statement; a minute's precision is plenty and keeps a busy automation from writing on
 * every call.
 */
export async function authenticateApiToken(options: {
  db: Queryable;
  token: string;
}): Promise<{ id: string; name: string; role: UserRole; tenants: string[] } | null> {
  const { rows } = await options.db.query<{
    id: string;
    name: string;
    role: string;
    tenants: string[];
  }>(
    `UPDATE cyclium_api_tokens
        SET last_used_at = CASE
              WHEN last_used_at IS NULL OR last_used_at < now() - interval '1 minute' THEN now()
              ELSE last_used_at END
      WHERE token_hash = $1 AND revoked_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM cyclium_users u
                         WHERE u.id = cyclium_api_tokens.created_by AND u.disabled_at IS NOT NULL)
      RETURNING id, name, role, tenants`,
    [hashSecretToken(options.token)],
  );
  const row = rows[0];
  if (row === undefined || !isUserRole(row.role)) return null;
  return { id: row.id, name: row.name, role: row.role, tenants: row.tenants };
}

/** One spelling per env: `public` and `default` both name the unset env, kept as `default`. */
function normalizeTenants(tenants: readonly string[]): string[] {
  return [...new Set(tenants.map((tenant) => tenantIdOf(envOfTenant(tenant.trim()))))].sort();
}

/**
 * Whether a token limited to `tenants` may address `tenantId` over REST (Cloacina answers
 * 403 `tenant_access_denied` otherwise). An empty list is no limit.
 */
export function apiTokenReachesTenant(tenants: readonly string[], tenantId: string): boolean {
  return tenants.length === 0 || tenants.includes(tenantIdOf(envOfTenant(tenantId)));
}
