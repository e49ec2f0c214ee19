import { z } from "zod";

/** Roles in increasing order of power (SPEC section 10): each role can do what the ones before it can. */
export const ROLES = ["viewer", "operator", "admin"] as const;
export const ZRole = z.enum(ROLES);
export type TRole = z.infer<typeof ZRole>;

/** Who is calling: a signed-in user (session cookie) or an API token (REST automation). */
export interface TPrincipal {
  kind: "user" | "token";
  /** cyclium_users.id or cyclium_api_tokens.id. */
  id: string;
  /** Email of a user, name of a token; what the audit log shows. */
  name: string;
  role: TRole;
  /**
   * An API token's REST tenants (envs), the unset env as `default`; empty or absent: every tenant.
   * Users are not limited by env (the console's env switch is a view, not a permission).
   */
  tenants?: readonly string[];
}

export function roleAtLeast(role: TRole, required: TRole): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(required);
}

/** The audit log's `principal` column: `user:alice@example.com`, `token:ci-deploy`, `anonymous`. */
export function describePrincipal(principal: TPrincipal | null): string {
  return principal === null ? "anonymous" : `${principal.kind}:${principal.name}`;
}
