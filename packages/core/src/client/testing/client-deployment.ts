// The deployment of the client's integration test, loaded by a real worker by path
// (CYCLIUM_DEPLOYMENT): an actor whose `run` takes a typed input, one that fails its first
// attempt (for retry), one no worker hosts (its episodes stay pending, for cancel), and a
// two-step workflow behind a cron trigger that fires only when asked (once a year).
import { z } from "zod";
import { defineActor, done, fail, type Strategy } from "../../actors/index";
import { defineDeployment } from "../../deployment/index";
import { noopStrategy, stepsStrategy } from "../../runtime/testing/index";
import { defineTrigger } from "../../triggers/index";
import { defineWorkflow } from "../../workflows/index";

export const CLIENT_TRIGGER = "client_tick";
export const CLIENT_WORKFLOW = "client_pipeline";

/** Fails attempt 1, completes every later one: a retried episode completes. */
const flakyStrategy: Strategy<unknown, null> = {
  init: () => null,
  step: (_state, ctx) =>
    ctx.episode.attempt === 1
      ? fail("flaky", "the first attempt always fails")
      : done({ attempt: ctx.episode.attempt }),
};

/** Fails its first two attempts, then completes: retried by its expectation's policy. */
const secondTimeLucky: Strategy<unknown, null> = {
  init: () => null,
  step: (_state, ctx) =>
    ctx.episode.attempt < 3
      ? fail("transient", `attempt ${ctx.episode.attempt} hit a transient error`)
      : done({ attempt: ctx.episode.attempt }),
};

/** Always fails: transiently, or with `{ final: true }` as final (`retry: false`). */
const alwaysFails: Strategy<{ final?: boolean } | undefined, { final: boolean }> = {
  init: (_ctx, input) => ({ final: input?.final === true }),
  step: (state) =>
    state.final
      ? fail("refused", "this will never work", { retry: false })
      : fail("transient", "still down"),
};

export const deployment = defineDeployment({
  actors: [
    defineActor({
      identifier: "client_steps",
      expectations: [
        {
          id: "run",
          strategy: stepsStrategy,
          trigger: { manual: true },
          input: z.object({ steps: z.number().int().min(1).max(10) }),
        },
        { id: "flaky", strategy: flakyStrategy, trigger: { manual: true } },
        {
          id: "retried",
          strategy: secondTimeLucky,
          trigger: { manual: true },
          retry: { maxAttempts: 3, backoff: { initialMs: 200 } },
        },
        {
          id: "doomed",
          strategy: alwaysFails,
          trigger: { manual: true },
          retry: { maxAttempts: 2, backoff: { initialMs: 100 } },
        },
      ],
    }),
    defineActor({
      identifier: "client_parked",
      // No worker of the test runs this stack: a fire stays pending until cancelled.
      stacks: ["nowhere"],
      expectations: [{ id: "wait", strategy: noopStrategy, trigger: { manual: true } }],
    }),
  ],
  workflows: [
    defineWorkflow({
      name: CLIENT_WORKFLOW,
      steps: [
        { name: "first", actor: "client_steps", expectation: "run", input: () => ({ steps: 1 }) },
        {
          name: "second",
          actor: "client_steps",
          expectation: "run",
          dependsOn: ["first"],
          input: () => ({ steps: 1 }),
        },
      ],
    }),
  ],
  triggers: [defineTrigger({ name: CLIENT_TRIGGER, on: CLIENT_WORKFLOW, cron: "0 0 1 1 *" })],
});
