import type { Queryable } from "../../db/index";
import type { ActorDefinition } from "../actor-definition";
import type { Trigger } from "../trigger";
import type { AgentDefinitionModel } from "@cyclium/db/models";
import type { RowOf } from "../../db/row-of";
import { envScopeSql, SqlParams } from "../../scope/index";

export interface ExpectationItem {
  id: string;
  strategy: string;
  triggerKind: "event" | "schedule" | "poll" | "manual";
  /** The firing rule as an operator reads it: an event topic, a cron with its zone, an interval. */
  triggerRule: string;
  recoveryPolicy: string;
  budget: { maxTurns: number | null; maxTokens: number | null; maxWallMs: number | null };
}

export interface ActorItem {
  identifier: string;
  source: "compiled" | "dynamic";
  /** False for a dynamic definition that is switched off in cyclium_agent_definitions. */
  enabled: boolean;
  maxConcurrentEpisodes: number;
  episodeOverflow: string;
  stacks: string[];
  expectations: ExpectationItem[];
}

export function describeTrigger(
  trigger: Trigger,
): Pick<ExpectationItem, "triggerKind" | "triggerRule"> {
  if ("event" in trigger) return { triggerKind: "event", triggerRule: trigger.event };
  if ("schedule" in trigger) {
    return { triggerKind: "schedule", triggerRule: `${trigger.schedule} (${trigger.timezone})` };
  }
  if ("poll" in trigger)
    return { triggerKind: "poll", triggerRule: `every ${trigger.intervalMs} ms` };
  return { triggerKind: "manual", triggerRule: "manual only" };
}

function fromDefinition(actor: ActorDefinition): ActorItem {
  return {
    identifier: actor.identifier,
    source: actor.source,
    enabled: true,
    maxConcurrentEpisodes: actor.maxConcurrentEpisodes,
    episodeOverflow: actor.episodeOverflow,
    stacks: [...actor.stacks],
    expectations: actor.expectations.map((expectation) => ({
      id: expectation.id,
      strategy:
        typeof expectation.strategy === "string" ? expectation.strategy : "(compiled strategy)",
      ...describeTrigger(expectation.trigger),
      recoveryPolicy: expectation.recoveryPolicy,
      budget: {
        maxTurns: expectation.budget.maxTurns ?? null,
        maxTokens: expectation.budget.maxTokens ?? null,
        maxWallMs: expectation.budget.maxWallMs ?? null,
      },
    })),
  };
}

type AgentDefinitionRow = Pick<
  RowOf<AgentDefinitionModel>,
  "identifier" | "enabled" | "max_concurrent_episodes" | "expectations" | "stacks"
>;

/** A disabled or not-yet-loaded dynamic actor, read straight from its row. */
function fromRow(row: AgentDefinitionRow): ActorItem {
  const expectations = Array.isArray(row.expectations) ? (row.expectations as unknown[]) : [];
  return {
    identifier: row.identifier,
    source: "dynamic",
    enabled: row.enabled,
    maxConcurrentEpisodes: row.max_concurrent_episodes,
    episodeOverflow: "queue",
    stacks: row.stacks ?? [],
    expectations: expectations.flatMap((raw) => {
      if (typeof raw !== "object" || raw === null) return [];
      const entry = raw as Record<string, unknown>;
      const trigger = (entry.trigger ?? { manual: true }) as Trigger;
      return [
        {
          id: typeof entry.id === "string" ? entry.id : "(unnamed)",
          strategy: typeof entry.strategy === "string" ? entry.strategy : "(unknown)",
          ...describeTrigger(trigger),
          recoveryPolicy: typeof entry.recoveryPolicy === "string" ? entry.recoveryPolicy : "fail",
          budget: { maxTurns: null, maxTokens: null, maxWallMs: null },
        },
      ];
    }),
  };
}

/**
 * Compiled actors from this process's registry (the same definitions the workers run) plus the
 * dynamic actors of cyclium_agent_definitions; a dynamic row the registry has not loaded (or that
 * is disabled) is shown from the row itself.
 */
export async function listActors(options: {
  db: Queryable;
  registered: readonly ActorDefinition[];
  /** Whose dynamic actors to show: each env has its own (strict, null the unset env). */
  env: string | null;
}): Promise<ActorItem[]> {
  const params = new SqlParams();
  const { rows } = await options.db.query<AgentDefinitionRow>(
    `SELECT identifier, enabled, max_concurrent_episodes, expectations, stacks
       FROM cyclium_agent_definitions
      WHERE ${envScopeSql("env", options.env, params)} ORDER BY identifier`,
    params.values,
  );
  const byId = new Map<string, ActorItem>();
  const ownRows = new Set(rows.map((row) => row.identifier));
  for (const actor of options.registered) {
    // The registry holds its own env's dynamic actors; another env's view shows that env's rows.
    if (actor.source === "dynamic" && !ownRows.has(actor.identifier)) continue;
    byId.set(actor.identifier, fromDefinition(actor));
  }
  for (const row of rows) {
    const known = byId.get(row.identifier);
    if (known === undefined || !row.enabled) byId.set(row.identifier, fromRow(row));
  }
  return [...byId.values()].sort(
    (a, b) => a.source.localeCompare(b.source) || a.identifier.localeCompare(b.identifier),
  );
}
