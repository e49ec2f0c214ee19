import "server-only";
import { getPool } from "../db";
import { createActorEndpoints } from "./actor-endpoints";

/** The dynamic actor endpoints bound to this process's pool. */
export const actorRoutes = createActorEndpoints({ getDb: getPool });
