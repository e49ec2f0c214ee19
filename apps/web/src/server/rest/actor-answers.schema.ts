// What the dynamic actor endpoints answer, as zod schemas: the OpenAPI document's response
// schemas (openapi/). The assertion at the bottom fails to compile when the view the endpoints
// send (agent-definition-commands.ts) and this schema drift apart.
import { z } from "zod";
import type { TAgentDefinitionView } from "../commands/agent-definition-commands";
import type { TExpect, TSameShape } from "./same-shape";

const ZTime = z.iso.datetime({ offset: true });

/** One dynamic actor (a row of cyclium_agent_definitions), as the console shows it too. */
export const ZActorView = z.strictObject({
  id: z.string(),
  identifier: z.string(),
  env: z.string().nullable().describe("The env it runs in; null is the unset env."),
  enabled: z.boolean(),
  maxConcurrentEpisodes: z.number().int(),
  stacks: z.array(z.string()),
  expectations: z.unknown().describe("As stored: the expectations the loader parses."),
  insertedAt: ZTime,
  updatedAt: ZTime,
  problem: z
    .string()
    .nullable()
    .describe("Why the loader skips this row (it does not validate); null when it loads."),
});

export const ZActorListAnswer = z.strictObject({
  tenant_id: z.string(),
  items: z.array(ZActorView),
  total: z.number().int().min(0),
});

export const ZActorAnswer = z.strictObject({ tenant_id: z.string(), actor: ZActorView });

// Compile-time: the endpoints' view is exactly this shape.
export type TActorAnswerMatchesView = TExpect<
  TSameShape<TAgentDefinitionView, z.output<typeof ZActorView>>
>;
