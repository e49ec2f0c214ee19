import { z } from "zod";
import { type TCursorIdKind, ZKeysetCursorText } from "@cyclium/core/console";

/**
 * The env a read inspects (SPEC section 8). Omitted: this console's own env (CYCLIUM_ENV).
 * `null`: the unset env, which the URL spells `env=default` (as REST spells its tenant).
 */
export const ZEnvInput = z.string().trim().min(1).max(255).nullable().optional();

/** Resolves `ZEnvInput` against the console's env. */
export function resolveEnv(
  consoleEnv: string | null,
  env: string | null | undefined,
): string | null {
  return env === undefined ? consoleEnv : env;
}

/** A name as the SPEC's tables store them (VARCHAR(255)), trimmed. */
export const ZName = z.string().trim().min(1).max(255);

/** Keyset paging shared by every list; `idKind` is the type of the list's id column. */
export const pageInput = (idKind: TCursorIdKind) => ({
  cursor: ZKeysetCursorText(idKind).optional(),
  direction: z.enum(["older", "newer"]).optional(),
  limit: z.number().int().min(1).max(200).default(50),
});

export const ZUuid = z.uuid();
