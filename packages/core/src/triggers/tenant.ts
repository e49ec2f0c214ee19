/**
 * REST addresses an env as a tenant (SPEC section 9): `default` is the unset env (NULL). An env
 * literally named "default" would be unreachable that way, so env validation elsewhere should
 * refuse it; here the mapping simply follows the SPEC.
 */
export const DEFAULT_TENANT = "default";

export function tenantIdOf(env: string | null): string {
  return env ?? DEFAULT_TENANT;
}

export function envOfTenant(tenantId: string): string | null {
  return tenantId === DEFAULT_TENANT ? null : tenantId;
}
