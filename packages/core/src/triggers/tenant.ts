/**
 * REST addresses an env as a tenant (SPEC sections 9 and 12). The unset env (NULL) answers to two
 * names: `default`, ours since the first REST version, and `public`, the tenant Cloacina's own
 * clients (cloacinactl, its generated Python client) send when none is configured. An env
 * literally named "default" or "public" is unreachable that way, so env validation elsewhere
 * should refuse those names; here the mapping follows the SPEC.
 */
export const DEFAULT_TENANT = "default";
export const PUBLIC_TENANT = "public";

export function tenantIdOf(env: string | null): string {
  return env ?? DEFAULT_TENANT;
}

export function envOfTenant(tenantId: string): string | null {
  return tenantId === DEFAULT_TENANT || tenantId === PUBLIC_TENANT ? null : tenantId;
}
