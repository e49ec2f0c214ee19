import { ZTenantId } from "@cyclium/core/triggers";
import { z } from "zod";

/** `{t}`: the env, `default` for the unset env (SPEC section 9). */
export const ZTenantParams = z.object({ t: ZTenantId });
export const ZTriggerParams = ZTenantParams.extend({ name: z.string().min(1).max(255) });
export type TTenantParams = z.infer<typeof ZTenantParams>;
export type TTriggerParams = z.infer<typeof ZTriggerParams>;

export const ZListTriggersQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const ZInspectTriggerQuery = z.strictObject({
  firings: z.coerce.number().int().min(1).max(1000).default(20),
});

/** `POST .../fire` body (SPEC section 12): `{context?}`; unknown keys are refused, not ignored. */
export const ZFireTriggerBody = z.strictObject({
  context: z.record(z.string(), z.unknown()).optional(),
});
