// A team's deployment whose work fails, loaded by path (CYCLIUM_DEPLOYMENT) by the failure
// visibility test: a strategy that throws, a workflow running it, and a poll trigger that wants
// to fire that workflow on every turn (the loop of issue 31).
import {
  defineActor,
  type Strategy,
  defineDeployment,
  defineTrigger,
  defineWorkflow,
} from "@cyclium/core";

export const FAILING_ACTOR = "ledger";
export const FAILING_EXPECTATION = "post";
export const FAILING_WORKFLOW = "post_ledger";
export const FAILING_TRIGGER = "ledger_poll";
export const FAILURE_MESSAGE = "ledger is locked by another writer";

class LedgerLockedError extends Error {
  override name = "LedgerLockedError";
}

/** Named, so the stack it leaves can be recognised in the log, the row and the console. */
function postLedgerEntry(): never {
  throw new LedgerLockedError(FAILURE_MESSAGE);
}

const postStrategy: Strategy<unknown, null> = {
  init: () => null,
  step: () => postLedgerEntry(),
};

export const deployment = defineDeployment({
  actors: [
    defineActor({
      identifier: FAILING_ACTOR,
      expectations: [
        { id: FAILING_EXPECTATION, strategy: postStrategy, trigger: { manual: true } },
      ],
    }),
  ],
  strategies: { post: postStrategy },
  workflows: [
    defineWorkflow({
      name: FAILING_WORKFLOW,
      steps: [{ name: "post", actor: FAILING_ACTOR, expectation: FAILING_EXPECTATION }],
    }),
  ],
  // Always true and without a context: the same context every turn. The breaker's defaults.
  triggers: [
    defineTrigger({
      name: FAILING_TRIGGER,
      on: FAILING_WORKFLOW,
      poll: () => true,
      pollIntervalMs: 200,
    }),
  ],
});
