import {
  createAgentDefinition,
  listAgentDefinitions,
  setAgentDefinitionEnabled,
  updateAgentDefinition,
  listRegisteredStrategies,
} from "@cyclium/core/console";
import { audited } from "../../audit";
import {
  agentDefinitionView,
  refuseDeploymentActorName,
  writtenDefinition,
} from "../../commands/agent-definition-commands";
import { adminProcedure, createTrpcRouter, viewerProcedure } from "../init";
import {
  ZCreateAgentDefinitionInput,
  ZListAgentDefinitionsInput,
  ZSetAgentDefinitionEnabledInput,
  ZUpdateAgentDefinitionInput,
} from "./agent-definitions.schema";
import { resolveEnv } from "./shared.schema";

/**
 * Dynamic actors (cyclium_agent_definitions) of one env: everyone reads them, admins write them.
 * Users are not env-limited (the env switch is a view), so the env is the page's, as for triggers.
 */
export const agentDefinitionsRouter = createTrpcRouter({
  list: viewerProcedure
    .input(ZListAgentDefinitionsInput)
    .query(async ({ ctx, input }) =>
      (await listAgentDefinitions({ env: resolveEnv(ctx.node.env, input?.env) }, ctx.db)).map(
        agentDefinitionView,
      ),
    ),

  /** What an expectation may name: the strategies the env's live workers registered. */
  strategies: viewerProcedure
    .input(ZListAgentDefinitionsInput)
    .query(({ ctx, input }) =>
      listRegisteredStrategies({ env: resolveEnv(ctx.node.env, input?.env) }, ctx.db),
    ),

  create: adminProcedure.input(ZCreateAgentDefinitionInput).mutation(({ ctx, input }) => {
    const { env: envInput, ...definition } = input;
    const env = resolveEnv(ctx.node.env, envInput);
    return audited(
      ctx,
      { action: "agentDefinitions.create", target: input.identifier, detail: { env } },
      async (tx) => {
        refuseDeploymentActorName(input.identifier);
        return writtenDefinition(await createAgentDefinition({ env, definition }, tx));
      },
    );
  }),

  update: adminProcedure.input(ZUpdateAgentDefinitionInput).mutation(({ ctx, input }) => {
    const env = resolveEnv(ctx.node.env, input.env);
    return audited(
      ctx,
      {
        action: "agentDefinitions.update",
        target: input.identifier,
        detail: { env, fields: Object.keys(input.changes) },
      },
      async (tx) =>
        writtenDefinition(
          await updateAgentDefinition(
            { env, identifier: input.identifier, changes: input.changes },
            tx,
          ),
        ),
    );
  }),

  setEnabled: adminProcedure.input(ZSetAgentDefinitionEnabledInput).mutation(({ ctx, input }) => {
    const env = resolveEnv(ctx.node.env, input.env);
    return audited(
      ctx,
      {
        action: "agentDefinitions.setEnabled",
        target: input.identifier,
        detail: { env, enabled: input.enabled },
      },
      async (tx) =>
        writtenDefinition(
          await setAgentDefinitionEnabled(
            { env, identifier: input.identifier, enabled: input.enabled },
            tx,
          ),
        ),
    );
  }),
});
