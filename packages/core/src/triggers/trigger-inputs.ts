import { z } from "zod";
import { MAX_FIRE_DELAY_MS, ZPriority } from "../actors/index";

/** Inputs of the trigger API as the REST layer and tRPC hand them in (SPEC section 12). */
export const ZTenantId = z.string().min(1).max(255);

export const ZListTriggersInput = z.object({
  tenantId: ZTenantId,
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export type TListTriggersInput = z.input<typeof ZListTriggersInput>;

export const ZTriggerNameInput = z.object({
  tenantId: ZTenantId,
  name: z.string().min(1).max(255),
});
export type TTriggerNameInput = z.input<typeof ZTriggerNameInput>;

export const ZInspectTriggerInput = ZTriggerNameInput.extend({
  firings: z.coerce.number().int().min(1).max(1000).default(20),
});
export type TInspectTriggerInput = z.input<typeof ZInspectTriggerInput>;

export const ZPauseTriggerInput = ZTriggerNameInput.extend({
  /** Who paused it, for the console (a user's email, an API token's name). */
  by: z.string().max(255).nullish(),
});
export type TPauseTriggerInput = z.input<typeof ZPauseTriggerInput>;

/**
 * A manual fire: Cloacina's clients send `event` (any JSON, or null), ours may send `context`
 * (an object); one of them at most. An object `event` is the context; any other non-null value
 * is kept under the key `event`.
 */
export const ZFireTriggerInput = ZTriggerNameInput.extend({
  context: z.record(z.string(), z.unknown()).optional(),
  event: z.unknown().optional(),
  firedBy: z.string().min(1).max(255),
  /** SPEC section 16: the fired workflows' root steps start no earlier, at this priority. */
  runAt: z.coerce.date().optional(),
  delayMs: z.number().int().min(0).max(MAX_FIRE_DELAY_MS).optional(),
  priority: ZPriority.optional(),
}).refine((input) => input.context === undefined || input.event === undefined, {
  message: "Send `event` or `context`, not both.",
  path: ["event"],
});
export type TFireTriggerInput = z.input<typeof ZFireTriggerInput>;
