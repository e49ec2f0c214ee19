// The deployment the e2e suite runs (CYCLIUM_DEPLOYMENT for its console build and its worker):
// not the demo, but a team's own module that composes the demo's actors, workflows and triggers
// (so the specs written against them keep working with one `next build`) with an actor and a
// workflow of its own, the way a team adds its work beside a library of shared actors.
import { setTimeout as sleep } from "node:timers/promises";
import {
  defineActor,
  done,
  fail,
  next,
  type Strategy,
  defineDeployment,
  defineTrigger,
  defineWorkflow,
} from "@cyclium/core";
import demo from "@cyclium/demo";
import { z } from "zod";

export const GREETER_ACTOR = "e2e_greeter";
export const GREET_EXPECTATION = "greet";
/** Two greetings in a row: the second step runs once the first completed. */
export const GREETING_WORKFLOW = "e2e_greeting";
/**
 * Starts the workflow once a year (00:00 on 1 January), so in practice only when someone fires
 * it from the console. The `e2e_` prefix keeps it out of rest-api.spec's choice of trigger.
 */
export const GREETING_TRIGGER = "e2e_greeting_schedule";

export const ZGreetInput = z.strictObject({
  name: z.string().trim().min(1).max(100),
  /** How many steps the episode journals before it completes (default 2). */
  steps: z.number().int().min(1).max(10).default(2),
});
export type TGreetInput = z.input<typeof ZGreetInput>;

type GreetState =
  | { phase: "count"; name: string; left: number; done: number }
  | { phase: "invalid"; message: string };

/**
 * Journals `steps` steps, then completes with a greeting. The console does not check a fire's
 * input against the expectation's schema (only `createClient` does), so the strategy parses it
 * itself and fails the episode with `invalid_input` when it is wrong.
 */
export const greetStrategy: Strategy<unknown, GreetState, { greeting: string }> = {
  init: (_ctx, input) => {
    const parsed = ZGreetInput.safeParse(input);
    if (!parsed.success) return { phase: "invalid", message: z.prettifyError(parsed.error) };
    return { phase: "count", name: parsed.data.name, left: parsed.data.steps, done: 0 };
  },
  step: (state) => {
    if (state.phase === "invalid") {
      return fail("invalid_input", state.message);
    }
    if (state.left > 1) {
      return next({ ...state, left: state.left - 1, done: state.done + 1 }, undefined, {
        counted: state.done + 1,
      });
    }
    return done({ greeting: `Hello, ${state.name}!` });
  },
};

export const greeter = defineActor({
  identifier: GREETER_ACTOR,
  maxConcurrentEpisodes: 2,
  expectations: [
    {
      id: GREET_EXPECTATION,
      strategy: greetStrategy,
      trigger: { manual: true },
      input: ZGreetInput,
      // Greeting again after a crash is harmless.
      recoveryPolicy: "restart",
      budget: { maxTurns: 20, maxWallMs: 30_000 },
    },
  ],
});

const greeting = defineWorkflow({
  name: GREETING_WORKFLOW,
  steps: [
    {
      name: "hello",
      actor: GREETER_ACTOR,
      expectation: GREET_EXPECTATION,
      input: () => ({ name: "workflow", steps: 1 }),
    },
    {
      name: "again",
      actor: GREETER_ACTOR,
      expectation: GREET_EXPECTATION,
      dependsOn: ["hello"],
      input: () => ({ name: "workflow, again", steps: 1 }),
    },
  ],
});

/** An actor whose strategy throws: its stack is what the attempt view shows (issue 31). */
export const LEDGER_ACTOR = "e2e_ledger";
export const LEDGER_EXPECTATION = "post";
export const LEDGER_FAILURE = "ledger is locked by another writer";

class LedgerLockedError extends Error {
  override name = "LedgerLockedError";
}

/** Named, so its frame can be recognised in the stack the console shows. */
function postLedgerEntry(): never {
  throw new LedgerLockedError(LEDGER_FAILURE);
}

export const ledgerStrategy: Strategy<unknown, null> = {
  init: () => null,
  step: () => postLedgerEntry(),
};

const ledger = defineActor({
  identifier: LEDGER_ACTOR,
  expectations: [{ id: LEDGER_EXPECTATION, strategy: ledgerStrategy, trigger: { manual: true } }],
});

/**
 * A call to a provider that allows one at a time across the cluster (SPEC section 16): each
 * episode holds the only slot for `holdMs`, so a second one waits on the global limit.
 */
export const LIMITED_ACTOR = "e2e_limited";
export const LIMITED_EXPECTATION = "call";
const ZHoldInput = z.strictObject({ holdMs: z.number().int().min(0).max(60_000).default(15_000) });

export const holdStrategy: Strategy<unknown, { holdMs: number }, { heldMs: number }> = {
  init: (_ctx, input) => ({ holdMs: ZHoldInput.parse(input ?? {}).holdMs }),
  step: async (state, ctx) => {
    await sleep(state.holdMs, undefined, { signal: ctx.signal });
    return done({ heldMs: state.holdMs });
  },
};

const limited = defineActor({
  identifier: LIMITED_ACTOR,
  maxConcurrentEpisodes: 3,
  concurrency: { global: 1 },
  expectations: [
    {
      id: LIMITED_EXPECTATION,
      strategy: holdStrategy,
      trigger: { manual: true },
      input: ZHoldInput,
    },
  ],
});

/** Fails its first attempt (a provider's 429), then succeeds: retried after a minute. */
export const FLAKY_ACTOR = "e2e_flaky";
export const FLAKY_EXPECTATION = "once";

export const flakyStrategy: Strategy<unknown, null> = {
  init: () => null,
  step: (_state, ctx) =>
    ctx.episode.attempt === 1 ? fail("rate_limited", "the provider answered 429") : done({}),
};

const flaky = defineActor({
  identifier: FLAKY_ACTOR,
  expectations: [
    {
      id: FLAKY_EXPECTATION,
      strategy: flakyStrategy,
      trigger: { manual: true },
      input: z.strictObject({}),
      retry: { maxAttempts: 3, backoff: { initialMs: 60_000 } },
    },
  ],
});

export const deployment = defineDeployment({
  actors: [...demo.actors, greeter, ledger, limited, flaky],
  strategies: { ...demo.strategies, e2e_greet: greetStrategy, e2e_ledger: ledgerStrategy },
  workflows: [...demo.workflows.list(), greeting],
  triggers: [
    ...demo.triggers.list(),
    defineTrigger({ name: GREETING_TRIGGER, on: GREETING_WORKFLOW, cron: "0 0 1 1 *" }),
  ],
});
export default deployment;
