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

// A second actor with the two steps of the daily report: count the greetings, then publish.
const countGreetings: Strategy<unknown, null, { greetings: number }> = {
  init: () => null,
  step: async (_state, ctx) => {
    const { rows } = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cyclium_episodes
        WHERE actor_id = 'greeter' AND status = 'completed'`,
    );
    return done({ greetings: rows[0]?.n ?? 0 });
  },
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
    { id: "count", strategy: countGreetings, trigger: { manual: true } },
    { id: "publish", strategy: publishReport, trigger: { manual: true } },
  ],
});

// The workflow: `publish` runs once `count` completed.
const dailyReport = defineWorkflow({
  name: "daily_report",
  steps: [
    { name: "count", actor: "reporter", expectation: "count" },
    { name: "publish", actor: "reporter", expectation: "publish", dependsOn: ["count"] },
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
