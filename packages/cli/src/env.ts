import { z } from "zod";

const ZCliEnv = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// connection string")
    .optional(),
});

export type TCliEnv = z.infer<typeof ZCliEnv>;

/** The CLI's configuration: DATABASE_URL, or the embedded PostgreSQL under .data/ when unset. */
export function readCliEnv(source: NodeJS.ProcessEnv = process.env): TCliEnv {
  const parsed = ZCliEnv.safeParse({ DATABASE_URL: source.DATABASE_URL || undefined });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `Invalid environment variable DATABASE_URL: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}

/** A mistake of the caller (arguments, environment): one line on stderr, exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
