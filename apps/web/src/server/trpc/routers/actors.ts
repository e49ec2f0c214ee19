import { listCircuitBreakers, describeInputSchemas, listActors } from "@cyclium/core/console";
import { audited } from "../../audit";
import { fireExpectation } from "../../commands/fire-expectation";
import { findConsoleRuntime, requireConsoleRuntime } from "../../runtime/console-runtime";
import { createTrpcRouter, operatorProcedure, viewerProcedure } from "../init";
import { ZActorsListInput, ZCircuitBreakersInput, ZFireExpectationInput } from "./actors.schema";
import { resolveEnv } from "./shared.schema";

export const actorsRouter = createTrpcRouter({
  /** The deployment's actors and the env's dynamic actors (each env has its own). */
  list: viewerProcedure.input(ZActorsListInput).query(({ ctx, input }) =>
    listActors({
      db: ctx.db,
      registered: findConsoleRuntime()?.registry.list() ?? [],
      env: resolveEnv(ctx.node.env, input?.env),
    }),
  ),

  /**
   * Each expectation's input as JSON Schema with an example payload (the Fire form's fields and
   * default), from the deployment the console bundles; dynamic actors have none (raw JSON).
   */
  inputSchemas: viewerProcedure.query(() =>
    describeInputSchemas(findConsoleRuntime()?.registry.list() ?? []),
  ),

  /** Circuit-breaker state of every event expectation that has one (SPEC 12), in the env. */
  circuitBreakers: viewerProcedure.input(ZCircuitBreakersInput).query(({ ctx, input }) =>
    listCircuitBreakers(
      {
        registry: findConsoleRuntime()?.registry ?? { list: () => [] },
        env: resolveEnv(ctx.node.env, input.env),
      },
      ctx.db,
    ),
  ),

  fire: operatorProcedure.input(ZFireExpectationInput).mutation(({ ctx, input }) =>
    audited(
      ctx,
      {
        action: "actors.fire",
        target: `${input.actorId}/${input.expectationId}`,
        detail: {
          idempotencyKey: input.idempotencyKey,
          runAt: input.runAt,
          delayMs: input.delayMs,
          priority: input.priority,
        },
      },
      // The fire goes through the node's ActorHost on its own connection (the deferred runner
      // writes the episode and its trigger request in one transaction of its own); the audit
      // row commits right after it.
      () =>
        fireExpectation({
          runtime: requireConsoleRuntime(),
          db: ctx.db,
          actorId: input.actorId,
          expectationId: input.expectationId,
          idempotencyKey: input.idempotencyKey,
          input: input.input,
          timing: {
            ...(input.runAt === undefined ? {} : { runAt: new Date(input.runAt) }),
            ...(input.delayMs === undefined ? {} : { delayMs: input.delayMs }),
            ...(input.priority === undefined ? {} : { priority: input.priority }),
          },
        }),
    ),
  ),
});
