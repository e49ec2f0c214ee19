import { z } from "zod";

const ZDbEnv = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// connection string")
    .optional(),
});

export type TDbEnv = z.infer<typeof ZDbEnv>;

/** The database package's own configuration, for its CLI. Exits 2 naming a bad variable. */
export function readDbEnv(source: NodeJS.ProcessEnv = process.env): TDbEnv {
  const parsed = ZDbEnv.safeParse({ DATABASE_URL: source.DATABASE_URL || undefined });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      console.error(`Invalid environment variable ${issue.path.join(".")}: ${issue.message}`);
    }
    process.exit(2);
  }
  return parsed.data;
}
