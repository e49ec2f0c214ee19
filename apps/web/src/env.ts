// The web process's configuration, read from process.env in this one module (lint enforces it)
// and validated with zod. Parsing is lazy so that `next build`, which evaluates route modules
// without a database, does not need DATABASE_URL; `instrumentation.ts` validates eagerly when
// the server starts so a bad variable still fails fast.
import {
  describeEnvIssues,
  withoutEmptyValues,
  ZEnvBoolean,
  ZEnvText,
  ZRetentionEnv,
  type TRetentionEnv,
  ZCycliumEnv,
  ZDatabaseUrl,
} from "@cyclium/core/console";
import { z } from "zod";
import { parseTrustedProxies, type TTrustedProxies } from "./server/auth/client-address";

/**
 * The shared SPEC variables (`ZCycliumEnv` of `@cyclium/core/worker`: deployment, identity,
 * stack, env, work claims, lease, staleness) with the same meaning as in the worker, plus the
 * console's own.
 */
export const ZWebEnv = ZCycliumEnv.extend({
  DATABASE_URL: z
    .string({ error: "DATABASE_URL is required: the console reads the cluster's database" })
    .pipe(ZDatabaseUrl),
  PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** `false` serves the console without a node (read-only pages; fires and sweeps refused). */
  CYCLIUM_WEB_NODE: ZEnvBoolean.default(true),
  /**
   * The reverse proxies in front of the console, as IPs or CIDR blocks separated by commas or
   * spaces (`10.0.0.1, 10.1.0.0/16`). Forwarding headers (`X-Forwarded-For`) are believed only
   * on connections from these; default none, so they are ignored and the socket address is the
   * client (sign-in throttle, audit log).
   */
  CYCLIUM_TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((text, context): TTrustedProxies => {
      const entries = (text ?? "").split(/[\s,]+/).filter((entry) => entry !== "");
      try {
        return parseTrustedProxies(entries);
      } catch (error) {
        context.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /** Set by `next build` while it prerenders: no node must start then. */
  NEXT_PHASE: ZEnvText.optional(),
});

export type TWebEnv = z.infer<typeof ZWebEnv>;

export class WebEnvError extends Error {
  override readonly name = "WebEnvError";
}

export function parseWebEnv(source: Record<string, string | undefined>): TWebEnv {
  // An empty variable (`CYCLIUM_ENV=`) means "unset", as it does for the worker.
  const result = ZWebEnv.safeParse(withoutEmptyValues(source));
  if (!result.success) {
    const problems = describeEnvIssues(result.error, source).map((line) => `  ${line}`);
    throw new WebEnvError(`Invalid environment for @cyclium/web:\n${problems.join("\n")}`);
  }
  return result.data;
}

let cachedEnv: TWebEnv | undefined;

export function getWebEnv(): TWebEnv {
  cachedEnv ??= parseWebEnv(process.env);
  return cachedEnv;
}

let cachedRetention: TRetentionEnv | undefined;

/**
 * The retention settings alone (CYCLIUM_RETENTION_*, CYCLIUM_PRUNER_*), for the Recovery page and
 * "Prune now": reading them needs no DATABASE_URL, which the console's request context does not
 * take from here (tests build it on a database of their own).
 */
export function getRetentionEnv(): TRetentionEnv {
  if (cachedRetention === undefined) {
    const result = ZRetentionEnv.safeParse(withoutEmptyValues(process.env));
    if (!result.success) {
      const problems = describeEnvIssues(result.error, process.env).map((line) => `  ${line}`);
      throw new WebEnvError(`Invalid retention settings:\n${problems.join("\n")}`);
    }
    cachedRetention = result.data;
  }
  return cachedRetention;
}
