"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback } from "react";

import { envInputFromParam } from "./env-param";

export { DEFAULT_ENV_PARAM, envInputFromParam } from "./env-param";

export function useEnvInput(): string | null | undefined {
  return envInputFromParam(useSearchParams().get("env"));
}

/**
 * Filters live in the URL (SPEC section 10), so a filtered view can be shared and survives a
 * reload. `update` merges a patch into the query string: `undefined`/`""` removes a key. Any
 * change of filters drops the page cursor, since a cursor belongs to one filter combination.
 */
export function useUrlState() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const update = useCallback(
    (patch: Record<string, string | undefined>, options: { keepCursor?: boolean } = {}) => {
      const next = new URLSearchParams(params.toString());
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined || value === "") next.delete(key);
        else next.set(key, value);
      }
      if (!options.keepCursor && !("cursor" in patch)) {
        next.delete("cursor");
        next.delete("dir");
      }
      const query = next.toString();
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [params, router, pathname],
  );
  const get = useCallback((key: string) => params.get(key) ?? undefined, [params]);
  return { params, get, update };
}

/**
 * A URL parameter's value if it is one of `values`, else undefined: an unknown value is dropped
 * rather than sent, so a hand-edited URL shows a wider list instead of an error.
 */
export function oneOf<T extends string>(
  values: readonly T[],
  value: string | undefined,
): T | undefined {
  return values.find((candidate) => candidate === value);
}

/** A link target that keeps the env the operator is inspecting. */
export function withEnv(href: string, env: string | null): string {
  if (env === null) return href;
  const [path, query = ""] = href.split("?");
  const search = new URLSearchParams(query);
  search.set("env", env);
  return `${path}?${search.toString()}`;
}
