import "server-only";
import { headers } from "next/headers";
import { cache } from "react";
import { getPool } from "../db";
import type { TPrincipal } from "./principal";
import { resolvePrincipal } from "./resolve-principal";

/**
 * The signed-in user for server components and server actions (once per render). Pages use it to
 * redirect and to hide controls; the procedures they call still check roles themselves.
 */
export const getCurrentPrincipal = cache(async (): Promise<TPrincipal | null> =>
  resolvePrincipal({ db: getPool(), headers: await headers(), allowApiTokens: false }),
);
