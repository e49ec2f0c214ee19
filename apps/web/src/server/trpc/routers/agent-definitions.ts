import {
  createAgentDefinition,
  listAgentDefinitions,
  setAgentDefinitionEnabled,
  updateAgentDefinition,
} from "@cyclium/core/actors";
import { listRegisteredStrategies } from "@cyclium/core/nodes";
import { audited } from "../../audit";
import {
  agentDefinitionView,
  refuseDeploymentActorName,
  writtenDefinition,
} from "../../commands/agent-definition-commands";
import { adminProcedure, createTrpcRouter, viewerProcedure } from "../init";
import {
  ZCreateAgentDefinitionInput,
  ZSetAgentDefinitionEnabledInput,
  ZUpdateAgentDefinitionInput,
} from "./agent-definitions.schema";

/** Dynamic actors (cyclium_agent_definitions): everyone reads them, admins write them. */
export const agentDefinitionsRouter = createTrpcRouter({
  list: viewerProcedure.query(async ({ ctx }) =>
    (await listAgentDefinitions(ctx.db)).map(agentDefinitionView),
  ),

  /** What an expectation may name: the strategies live workers registered. */
  strategies: viewerProcedure.query(({ ctx }) => listRegisteredStrategies({}, ctx.db)),

  create: adminProcedure.input(ZCreateAgentDefinitionInput).mutation(({ ctx, input }) =>
    audited(ctx, { action: "agentDefinitions.create", target: input.identifier }, async (tx) => {
      refuseDeploymentActorName(input.identifier);
      return writtenDefinition(await createAgentDefinition(input, tx));
    }),
  ),

  update: adminProcedure.input(ZUpdateAgentDefinitionInput).mutation(({ ctx, input }) =>
    audited(
      ctx,
      {
        action: "agentDefinitions.update",
        target: input.identifier,
        detail: { fields: Object.keys(input.changes) },
      },
      async (tx) => writtenDefinition(await updateAgentDefinition(input, tx)),
    ),
  ),

  setEnabled: adminProcedure.input(ZSetAgentDefinitionEnabledInput).mutation(({ ctx, input }) =>
    audited(
      ctx,
      {
        action: "agentDefinitions.setEnabled",
        target: input.identifier,
        detail: { enabled: input.enabled },
      },
      async (tx) => writtenDefinition(await setAgentDefinitionEnabled(input, tx)),
    ),
  ),
});
