import { ZAgentDefinitionChanges, ZAgentDefinitionInput } from "@cyclium/core/console";
import { z } from "zod";
import { ZTenantParams } from "./trigger-endpoints.schema";

/** `{t}` and `{name}`: the dynamic actor's identifier. */
export const ZActorParams = ZTenantParams.extend({ name: z.string().min(1).max(255) });
export type TActorParams = z.infer<typeof ZActorParams>;

/** `POST .../actors` and `PUT .../actors/{name}`: a whole definition (core's schema). */
export const ZActorBody = ZAgentDefinitionInput;

/** `PATCH .../actors/{name}`: the fields to change. */
export const ZActorPatchBody = ZAgentDefinitionChanges;
