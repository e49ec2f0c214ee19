/** `?env=default` is the unset env, as REST's `default` tenant (SPEC section 9). */
export const DEFAULT_ENV_PARAM = "default";

/**
 * The env a page inspects, as procedure input: `undefined` = the console's own env (no param),
 * `null` = the unset env (`env=default`), else the named env. Shared by server and client.
 */
export function envInputFromParam(value: string | null): string | null | undefined {
  if (value === null || value === "") return undefined;
  return value === DEFAULT_ENV_PARAM ? null : value;
}
