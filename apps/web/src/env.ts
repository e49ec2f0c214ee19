// The web process's configuration, read from process.env in this one module (lint enforces it)
// and validated with zod. Parsing is lazy so that `next build`, which evaluates route modules
// without a database, does not need DATABASE_URL; `instrumentation.ts` validates eagerly when
// the server starts so a bad variable still fails fast.
import { z } from "zod";
import { parseTrustedProxies, type TTrustedProxies } from "./server/auth/client-address";

// An empty variable (`CYCLIUM_ENV=`) means "unset", as it does for the worker.
const optionalText = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  z.string().trim().max(255).optional(),
);

export const ZWebEnv = z.object({
  DATABASE_URL: z
    .string({ error: "DATABASE_URL is required: the console reads the cluster's database" })
    .trim()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgres:// or postgresql:// URL"),
  PORT: z.coerce.number().int().min(1).max(65535).optional(),
  CYCLIUM_ENV: optionalText,
  CYCLIUM_NODE_IDENTITY: optionalText,
  CYCLIUM_STACK_SLUG: optionalText,
  // The console's own Cyclium node (trigger_only, started by instrumentation.ts).
  // `postgres`, `memory` (one process only), `off`/`none`, or a claim adapter module's path or
  // package name (docs/work-claims.md): the same meaning as the worker's.
  CYCLIUM_WORK_CLAIMS: z.string().trim().min(1).max(1024).default("postgres"),
  CYCLIUM_WORK_CLAIMS_LEASE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120),
  CYCLIUM_STALE_AFTER_MS: z.coerce.number().int().min(1).default(120_000),
  /** `false` serves the console without a node (read-only pages; fires and sweeps refused). */
  CYCLIUM_WEB_NODE: z.stringbool().default(true),
  /**
   * The deployment (SPEC section 13). The console bundles it at build time (next.config.ts);
   * at start it must name the one the build contains.
   */
  CYCLIUM_DEPLOYMENT: z.string().trim().min(1).default("@cyclium/demo"),
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
  NEXT_PHASE: optionalText,
});

export type TWebEnv = z.infer<typeof ZWebEnv>;

export class WebEnvError extends Error {
  override readonly name = "WebEnvError";
}

export function parseWebEnv(source: Record<string, string | undefined>): TWebEnv {
  const result = ZWebEnv.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `  ${issue.path.join(".") || "(root)"}: ${issue.message}`,
    );
    throw new WebEnvError(`Invalid environment for @cyclium/web:\n${problems.join("\n")}`);
  }
  return result.data;
}

let cachedEnv: TWebEnv | undefined;

export function getWebEnv(): TWebEnv {
  cachedEnv ??= parseWebEnv(process.env);
  return cachedEnv;
}

/**
 * The deployment `next build` bundled (next.config.ts inlines it): an absolute path or a
 * package name; undefined outside a Next build (tests).
 */
export const BUILT_DEPLOYMENT: string | undefined = process.env.CYCLIUM_BUILT_DEPLOYMENT;
