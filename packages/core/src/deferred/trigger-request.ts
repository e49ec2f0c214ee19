import { z } from "zod";

/** `cyclium_trigger_requests.status`. */
export const TRIGGER_REQUEST_STATUSES = ["pending", "claimed", "completed", "expired"] as const;
export type TriggerRequestStatus = (typeof TRIGGER_REQUEST_STATUSES)[number];

/** NOTIFY channel the deferred runner wakes pollers on. */
export const TRIGGER_REQUESTS_CHANNEL = "cyclium_trigger_requests";

/** `opts`: what the dispatching node hands to its runner along with the episode. */
export const ZTriggerRequestOpts = z
  .object({
    /** Set when recovery deferred a restarted episode: queued, never dropped or shed. */
    recovered: z.boolean().optional(),
    /** What to resume from (e.g. a checkpoint reference); passed to the strategy as is. */
    resume: z.unknown().optional(),
  })
  .catch({});
export type TTriggerRequestOpts = z.infer<typeof ZTriggerRequestOpts>;

/** The wake-up payload: pollers whose filters cannot match skip the poll. */
export const ZTriggerRequestWakeup = z
  .object({ stack: z.string().nullable(), env: z.string().nullable() })
  .partial();
export type TTriggerRequestWakeup = z.infer<typeof ZTriggerRequestWakeup>;
