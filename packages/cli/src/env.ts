import { withoutEmptyValues, ZRetentionEnv, type TRetentionEnv } from "@cyclium/core/console";
import { ZCycliumEnv } from "@cyclium/core/worker";
import type { z } from "zod";

/**
 * The CLI reads the shared DATABASE_URL, and CYCLIUM_LISTEN_DATABASE_URL, the direct connection
 * `migrate` takes its session advisory lock on when DATABASE_URL goes through PgBouncer.
 */
const ZCliEnv = ZCycliumEnv.pick({ DATABASE_URL: true, CYCLIUM_LISTEN_DATABASE_URL: true });

export type TCliEnv = z.infer<typeof ZCliEnv>;

/** The CLI's configuration: DATABASE_URL, or the embedded PostgreSQL under .data/ when unset. */
export function readCliEnv(source: NodeJS.ProcessEnv = process.env): TCliEnv {
  const parsed = ZCliEnv.safeParse(withoutEmptyValues(source));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join(".") || "DATABASE_URL";
    throw new UsageError(`Invalid environment variable ${name}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}

/** A mistake of the caller (arguments, environment): one line on stderr, exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** `cyclium prune`: the same CYCLIUM_RETENTION_* / CYCLIUM_PRUNER_* variables a worker reads. */
export function readPruneEnv(source: NodeJS.ProcessEnv = process.env): TRetentionEnv {
  const parsed = ZRetentionEnv.safeParse(withoutEmptyValues(source));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join(".") || "CYCLIUM_RETENTION_EPISODES";
    throw new UsageError(`Invalid environment variable ${name}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}
