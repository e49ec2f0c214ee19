import { ZTenantId, MAX_FIRE_DELAY_MS, MAX_PRIORITY, MIN_PRIORITY } from "@cyclium/core/console";
import { z } from "zod";

/**
 * `{t}`: the env. The unset env is `public` (Cloacina's clients' default tenant) or `default`
 * (ours); see core's triggers/tenant.ts.
 */
export const ZTenantParams = z.object({ t: ZTenantId });
export const ZTriggerParams = ZTenantParams.extend({ name: z.string().min(1).max(255) });
export type TTenantParams = z.infer<typeof ZTenantParams>;
export type TTriggerParams = z.infer<typeof ZTriggerParams>;

/** A list page; outside these bounds the answer is Cloacina's `400 invalid_pagination`. */
export const ZListTriggersQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const ZInspectTriggerQuery = z.strictObject({
  firings: z.coerce.number().int().min(1).max(1000).default(20),
});

/**
 * `POST .../fire` body: Cloacina's CLI sends `{"event": <any JSON or null>}` (or `{}`); ours may
 * send `{"context": {...}}` instead. Other keys are refused, not ignored.
 */
export const ZFireTriggerBody = z.strictObject({
  event: z.unknown().optional(),
  context: z.record(z.string(), z.unknown()).optional(),
  /** Ours, not Cloacina's: the workflows' first steps start no earlier than this instant. */
  runAt: z.iso.datetime({ offset: true }).optional(),
  /** Ours: ... no earlier than this many ms from now (after runAt when both are given). */
  delayMs: z.number().int().min(0).max(MAX_FIRE_DELAY_MS).optional(),
  /** Ours: their priority among waiting work, 0-10 (higher first). */
  priority: z.number().int().min(MIN_PRIORITY).max(MAX_PRIORITY).optional(),
});

/**
 * Cloacina's names for our error codes in the trigger API's answers: its clients switch on them.
 * A role refusal stays `forbidden` (403), like Cloacina's other forbidden-status codes.
 */
export const CLOACINA_ERROR_CODES: Readonly<Record<string, string>> = {
  unauthenticated: "unauthorized",
  not_found: "trigger_not_found",
  internal: "internal_error",
};
