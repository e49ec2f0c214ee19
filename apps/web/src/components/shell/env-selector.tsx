"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { DEFAULT_ENV_PARAM, envInputFromParam } from "@/lib/url-state";
import { useTRPC } from "@/trpc/trpc-react-provider";
import { useRefetchInterval } from "@/lib/live/use-refetch-interval";

const label = (env: string | null) => env ?? DEFAULT_ENV_PARAM;

/**
 * Which env the pages read (SPEC section 8). The console shows its own env (CYCLIUM_ENV) unless
 * `?env=` says otherwise; `default` is the unset env. Every scoped read takes it, and the
 * sidebar keeps it while navigating. Inspecting another env is highlighted so nobody mistakes
 * it for the console's own world.
 */
export function EnvSelector({ consoleEnv }: { consoleEnv: string | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const envs = useQuery({
    ...trpc.envs.list.queryOptions(),
    refetchInterval: useRefetchInterval(30_000, { pushed: false }),
  });
  const selectedInput = envInputFromParam(params.get("env"));
  const selected = selectedInput === undefined ? consoleEnv : selectedInput;
  const known = new Set<string | null>([consoleEnv, selected, ...(envs.data?.envs ?? [null])]);
  const options = [...known].sort((a, b) => label(a).localeCompare(label(b)));
  const foreign = selected !== consoleEnv;

  const choose = (value: string) => {
    const env = value === DEFAULT_ENV_PARAM ? null : value;
    const next = new URLSearchParams(params.toString());
    // Lists keep their filters, but a cursor belongs to the env it was read in.
    next.delete("cursor");
    next.delete("dir");
    if (env === consoleEnv) next.delete("env");
    else next.set("env", label(env));
    const query = next.toString();
    router.push(query ? `${pathname}?${query}` : pathname);
  };

  return (
    <span
      className="env-selector"
      data-foreign={foreign}
      title={
        foreign
          ? `Inspecting env ${label(selected)}; this console runs in ${label(consoleEnv)}`
          : `This console's env (CYCLIUM_ENV${consoleEnv ? `=${consoleEnv}` : " unset"})`
      }
    >
      <label htmlFor="env-selector">env</label>
      <select
        id="env-selector"
        data-testid="env-selector"
        value={label(selected)}
        onChange={(event) => choose(event.target.value)}
      >
        {options.map((env) => (
          <option key={label(env)} value={label(env)}>
            {label(env)}
            {env === consoleEnv ? " (this console)" : ""}
          </option>
        ))}
      </select>
    </span>
  );
}
