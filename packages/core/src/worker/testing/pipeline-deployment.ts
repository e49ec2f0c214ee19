// A deployment of the multi-process tests, loaded by path (CYCLIUM_DEPLOYMENT): two actors, a
// two-step workflow started by a cron trigger every 2 s (CYCLIUM_TEST_PIPELINE_CRON moves it),
// and a slow two-step workflow that only a caller starts.
import { defineActor } from "../../actors/index";
import { defineDeployment } from "../../deployment/index";
import { stepsStrategy } from "../../runtime/testing/index";
import { defineTrigger } from "../../triggers/index";
import { defineWorkflow } from "../../workflows/index";

export const PIPELINE_TRIGGER = "pipeline_tick";
export const PIPELINE_WORKFLOW = "pipeline";
/** Its first step runs 4 x 1 s: long enough to kill a process while it runs. */
export const SLOW_PIPELINE_WORKFLOW = "slow_pipeline";

const actor = (identifier: string) =>
  defineActor({
    identifier,
    maxConcurrentEpisodes: 4,
    expectations: [
      { id: "run", strategy: stepsStrategy, trigger: { manual: true }, recoveryPolicy: "restart" },
    ],
  });

export const deployment = defineDeployment({
  actors: [actor("pipeline_extract"), actor("pipeline_load")],
  strategies: { steps: stepsStrategy },
  workflows: [
    defineWorkflow({
      name: PIPELINE_WORKFLOW,
      steps: [
        {
          name: "extract",
          actor: "pipeline_extract",
          expectation: "run",
          input: () => ({ steps: 2 }),
        },
        {
          name: "load",
          actor: "pipeline_load",
          expectation: "run",
          dependsOn: ["extract"],
          input: () => ({ steps: 2 }),
        },
      ],
    }),
    defineWorkflow({
      name: SLOW_PIPELINE_WORKFLOW,
      steps: [
        {
          name: "extract",
          actor: "pipeline_extract",
          expectation: "run",
          input: () => ({ steps: 4, stepMs: 1_000 }),
        },
        {
          name: "load",
          actor: "pipeline_load",
          expectation: "run",
          dependsOn: ["extract"],
          input: () => ({ steps: 2 }),
        },
      ],
    }),
  ],
  triggers: [
    defineTrigger({
      name: PIPELINE_TRIGGER,
      on: PIPELINE_WORKFLOW,
      cron: process.env.CYCLIUM_TEST_PIPELINE_CRON ?? "*/2 * * * * *",
    }),
  ],
});
