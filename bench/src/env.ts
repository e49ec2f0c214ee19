import { ZCycliumEnv } from "@cyclium/core/worker";
import type { z } from "zod";

/** The bench's one variable, spelled as every process spells it. */
const ZBenchEnv = ZCycliumEnv.pick({ DATABASE_URL: true });

export type TBenchEnv = z.infer<typeof ZBenchEnv>;

/** The bench's configuration from the environment; exits 2 naming a bad variable. */
export function readBenchEnv(source: NodeJS.ProcessEnv = process.env): TBenchEnv {
  const parsed = ZBenchEnv.safeParse({ DATABASE_URL: source.DATABASE_URL || undefined });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      console.error(`Invalid environment variable ${issue.path.join(".")}: ${issue.message}`);
    }
    process.exit(2);
  }
  return parsed.data;
}

/** This process's environment with `extra` on top, for the worker processes the bench starts. */
export function childEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...extra };
}
