import { defineActor, type ActorDefinition, type AnyStrategy } from "@cyclium/core";
import { advisorStrategy } from "./advisor-strategy";
import { limitCheckStrategy } from "./limit-check-strategy";
import { LIMIT_APPROVAL_SIGNAL, limitRaiseStrategy, ZLimitApproval } from "./limit-raise-strategy";
import { RESOURCE_UPDATED_TOPIC, ZAdvisorInput, ZResourceUpdated } from "./resource";

/** Registered by name, so dynamic actors (cyclium_agent_definitions) can run them too. */
export const demoStrategies: Record<string, AnyStrategy> = {
  resource_limit_check: limitCheckStrategy,
  resource_advisor_summary: advisorStrategy,
  resource_limit_raise: limitRaiseStrategy,
};

/** Checks a resource against its limit whenever it is updated. */
export const resourceMonitor = defineActor({
  identifier: "resource_monitor",
  maxConcurrentEpisodes: 4,
  expectations: [
    {
      id: "check_resource_limits",
      strategy: limitCheckStrategy,
      trigger: { event: RESOURCE_UPDATED_TOPIC },
      // The event's payload; a manual fire (the console's form, the client) is checked against it.
      input: ZResourceUpdated,
      // Re-reads the row on every run, so running it again after a crash is harmless.
      recoveryPolicy: "restart",
      budget: { maxTurns: 5, maxTokens: 25_000, maxWallMs: 120_000 },
    },
    {
      // Proposes a higher limit and waits for an operator's approval before applying it: the
      // console shows it `waiting` with an approve / reject form (SPEC section 17).
      id: "raise_limit",
      strategy: limitRaiseStrategy,
      trigger: { manual: true },
      input: ZResourceUpdated,
      signals: { [LIMIT_APPROVAL_SIGNAL]: ZLimitApproval },
      recoveryPolicy: "restart",
      budget: { maxTurns: 5 },
    },
  ],
});

/** The advisor's default schedule: every five minutes (CYCLIUM_DEMO_ADVISOR_CRON overrides it). */
export const DEFAULT_ADVISOR_CRON = "*/5 * * * *";

/** Summarises every resource's headroom on a schedule. */
export function defineResourceAdvisor(cron: string = DEFAULT_ADVISOR_CRON): ActorDefinition {
  return defineActor({
    identifier: "resource_advisor",
    maxConcurrentEpisodes: 1,
    expectations: [
      {
        id: "summarise_capacity",
        strategy: advisorStrategy,
        trigger: { schedule: cron, timezone: "UTC" },
        input: ZAdvisorInput,
        recoveryPolicy: "restart",
        budget: { maxTurns: 4, maxWallMs: 60_000 },
      },
    ],
  });
}

export const resourceAdvisor = defineResourceAdvisor();

/**
 * The demo actors. The advisor's schedule is a parameter so that test clusters can move it out
 * of the way: a scheduled episode landing mid-test changes counts that specs assert.
 */
export function createDemoActors(options: { advisorCron?: string } = {}): ActorDefinition[] {
  return [resourceMonitor, defineResourceAdvisor(options.advisorCron)];
}

export const demoActors: readonly ActorDefinition[] = createDemoActors();
