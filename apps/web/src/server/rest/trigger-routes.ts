import "server-only";
import { getPool } from "../db";
import { createTriggerEndpoints } from "./trigger-endpoints";
import { getTriggerServices } from "./trigger-services";

/** The trigger endpoints bound to this process's pool and runtime; route files re-export them. */
export const triggerRoutes = createTriggerEndpoints({ getDb: getPool, getTriggerServices });
