"use client";

import { EmptyState } from "@/components/ui/empty-state";
import { StatusPill } from "@/components/ui/status-pill";
import { formatCount } from "@/lib/format-count";
import type { TRouterOutputs } from "@/trpc/router-types";
import { FireButton } from "./fire-button";

type TActor = TRouterOutputs["actors"]["list"][number];
type TExpectation = TActor["expectations"][number];

function budget(expectation: TExpectation): string {
  const parts = [
    expectation.budget.maxTurns !== null ? `${expectation.budget.maxTurns} turns` : null,
    expectation.budget.maxTokens !== null
      ? `${formatCount(expectation.budget.maxTokens)} tokens`
      : null,
    expectation.budget.maxWallMs !== null
      ? `${formatCount(expectation.budget.maxWallMs / 1000)} s`
      : null,
  ].filter((part) => part !== null);
  return parts.length > 0 ? parts.join(" · ") : "unbounded";
}

/** Compiled and dynamic actors with their expectations, each with a Fire button. */
export function ActorsSection({
  actors,
  canOperate,
  fireBlockedReason,
}: {
  actors: TActor[];
  canOperate: boolean;
  fireBlockedReason: string | null;
}) {
  if (actors.length === 0) {
    return (
      <EmptyState icon="person" title="No actors" testId="actors-empty">
        This console's node has not registered any actor yet (it may still be starting), and
        cyclium_agent_definitions holds no dynamic actor.
      </EmptyState>
    );
  }
  return (
    <div data-testid="actors-list">
      {actors.map((actor) => (
        <section
          key={actor.identifier}
          className="card actor-card"
          data-testid={`actor-${actor.identifier}`}
        >
          <div className="card-header">
            <span className="mode-cell">
              <span className="mono">{actor.identifier}</span>
              <span className="pill">{actor.source}</span>
              {!actor.enabled ? <StatusPill status="disabled" /> : null}
            </span>
            <span className="actor-meta">
              <span>max {actor.maxConcurrentEpisodes} concurrent</span>
              <span>overflow {actor.episodeOverflow}</span>
              <span>stacks {actor.stacks.length > 0 ? actor.stacks.join(", ") : "all"}</span>
            </span>
          </div>
          {/* A card per expectation on a phone (responsive.css): six columns were ~600 px wider than a
              390 px screen, and the card has no scroll box of its own. */}
          <table className="table table-cards" data-dense="true">
            <thead>
              <tr>
                <th scope="col">Expectation</th>
                <th scope="col">Trigger</th>
                <th scope="col">Strategy</th>
                <th scope="col">Recovery</th>
                <th scope="col">Budget</th>
                {canOperate ? <th scope="col">Manual fire</th> : null}
              </tr>
            </thead>
            <tbody>
              {actor.expectations.map((expectation) => (
                <tr key={expectation.id}>
                  <td className="mono cell-primary" data-label="Expectation">
                    {expectation.id}
                  </td>
                  <td data-label="Trigger">
                    <span className="pill">{expectation.triggerKind}</span>{" "}
                    <span className="mono note">{expectation.triggerRule}</span>
                  </td>
                  <td className="mono note" data-label="Strategy">
                    {expectation.strategy}
                  </td>
                  <td data-label="Recovery">{expectation.recoveryPolicy}</td>
                  <td className="note" data-label="Budget">
                    {budget(expectation)}
                  </td>
                  {canOperate ? (
                    <td>
                      <FireButton
                        actorId={actor.identifier}
                        expectationId={expectation.id}
                        disabledReason={
                          !actor.enabled ? "This dynamic actor is disabled." : fireBlockedReason
                        }
                      />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}
