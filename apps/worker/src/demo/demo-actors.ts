import { defineActor, type ActorDefinition, type AnyStrategy } from "@cyclium/core/actors";
import { advisorStrategy } from "./advisor-strategy";
import { limitCheckStrategy } from "./limit-check-strategy";
import { RESOURCE_UPDATED_TOPIC } from "./resource";

/** Registered by name, so dynamic actors (cyclium_agent_definitions) can run them too. */
export const demoStrategies: Record<string, AnyStrategy> = {
  resource_limit_check: limitCheckStrategy,
  resource_advisor_summary: advisorStrategy,
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
      // Re-reads the row on every run, so running it again after a crash is harmless.
      recoveryPolicy: "restart",
      budget: { maxTurns: 5, maxTokens: 25_000, maxWallMs: 120_000 },
    },
  ],
});

/** Summarises every resource's headroom every five minutes. */
export const resourceAdvisor = defineActor({
  identifier: "resource_advisor",
  maxConcurrentEpisodes: 1,
  expectations: [
    {
      id: "summarise_capacity",
      strategy: advisorStrategy,
      trigger: { schedule: "*/5 * * * *", timezone: "UTC" },
      recoveryPolicy: "restart",
      budget: { maxTurns: 4, maxWallMs: 60_000 },
    },
  ],
});

export const demoActors: readonly ActorDefinition[] = [resourceMonitor, resourceAdvisor];
