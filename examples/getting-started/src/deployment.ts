import {
  defineActor,
  defineDeployment,
  defineTrigger,
  defineWorkflow,
  done,
  type Strategy,
} from "@cyclium/core";
import { z } from "zod";
import { env } from "./env.js";

// Your first actor: `greeter` answers one expectation, `greet`, fired by hand (createClient).
const ZGreetInput = z.object({ name: z.string().min(1) });

const greet: Strategy<z.infer<typeof ZGreetInput>, { name: string }> = {
  init: (_ctx, input) => ({ name: input.name }),
  step: (state) => done({ greeting: `Hello, ${state.name}!` }),
};

const greeter = defineActor({
  identifier: "greeter",
  expectations: [{ id: "greet", strategy: greet, trigger: { manual: true }, input: ZGreetInput }],
});

// A second actor with the two steps of the daily report: collect it, then publish it. Strategies
// reach your own systems (an API, your tables through ctx.db); Cyclium's tables are not an API:
// read episodes with createClient (client.get, fire(...).result) or the REST API.
const collectReport: Strategy<unknown, null, { day: string }> = {
  init: () => null,
  step: () => done({ day: new Date().toISOString().slice(0, 10) }),
};

const publishReport: Strategy<unknown, null> = {
  init: () => null,
  step: (_state, ctx) => {
    ctx.logger.info({ workflow: ctx.episode.workflowInstanceId }, "daily report published");
    return done({ published: true });
  },
};

const reporter = defineActor({
  identifier: "reporter",
  expectations: [
    { id: "collect", strategy: collectReport, trigger: { manual: true } },
    { id: "publish", strategy: publishReport, trigger: { manual: true } },
  ],
});

// The workflow: `publish` runs once `collect` completed.
const dailyReport = defineWorkflow({
  name: "daily_report",
  steps: [
    { name: "collect", actor: "reporter", expectation: "collect" },
    { name: "publish", actor: "reporter", expectation: "publish", dependsOn: ["collect"] },
  ],
});

// Its cron trigger: each window fires once across all your workers.
const dailyReportSchedule = defineTrigger({
  name: "daily_report_schedule",
  on: "daily_report",
  cron: env.reportCron,
  timezone: "UTC",
});

export const deployment = defineDeployment({
  actors: [greeter, reporter],
  workflows: [dailyReport],
  triggers: [dailyReportSchedule],
});
export default deployment;
