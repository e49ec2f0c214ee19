import { CycliumError, sendSignal } from "@cyclium/core/console";
import { audited, type TAuditContext } from "../../audit";
import { describePrincipal } from "../../auth/principal";
import { requireConsoleRuntime } from "../../runtime/console-runtime";

export interface TSignalEpisodeInput {
  episodeId: string;
  name: string;
  payload: unknown;
  idempotencyKey?: string | undefined;
  /** A REST tenant's env: an episode of another env is not found. Undefined: any env. */
  env?: string | null | undefined;
  /** Where it came from, kept in the audit row: `console` or `rest`. */
  via: "console" | "rest";
}

export interface TSignalEpisodeAnswer {
  kind: "delivered" | "duplicate";
  signalId: string;
  /** The episode was waiting for it and resumes now. */
  woke: boolean;
}

/**
 * An operator's signal to an episode (SPEC section 17), from the console or REST: checked
 * against the expectation's `signals` schema by core's sendSignal, delivered in the same
 * transaction as its audit row (who, when, the payload). Refusals are the expected errors the
 * caller maps: an unknown signal or a bad payload `invalid_input` naming the field, an episode
 * not there `not_found`, one that has ended `conflict`.
 */
export async function signalEpisode(
  ctx: TAuditContext,
  input: TSignalEpisodeInput,
): Promise<TSignalEpisodeAnswer> {
  const { registry } = requireConsoleRuntime();
  const what = {
    action: "episodes.signal",
    target: input.episodeId,
    detail: {
      via: input.via,
      signal: input.name,
      payload: input.payload,
      ...(input.idempotencyKey === undefined ? {} : { idempotencyKey: input.idempotencyKey }),
    },
  };
  return audited(ctx, what, async (tx) => {
    const result = await sendSignal(
      {
        episodeId: input.episodeId,
        name: input.name,
        payload: input.payload,
        idempotencyKey: input.idempotencyKey,
        sentBy: describePrincipal(ctx.principal),
        env: input.env,
        expectationOf: (actorId, expectationId) => registry.expectation(actorId, expectationId),
      },
      ctx.db,
      tx,
    );
    switch (result.kind) {
      case "delivered":
        return { kind: "delivered", signalId: result.signalId, woke: result.woke };
      case "duplicate":
        return { kind: "duplicate", signalId: result.signalId, woke: false };
      case "not_found":
        throw new CycliumError("not_found", `No episode ${input.episodeId}.`);
      case "ended":
        throw new CycliumError(
          "conflict",
          `This episode is ${result.status}: no wait will ever receive the signal.`,
        );
      case "unknown_signal":
        throw new CycliumError(
          "invalid_input",
          `name: this episode's expectation declares no signal "${input.name}"` +
            (result.declared.length > 0 ? ` (it accepts: ${result.declared.join(", ")}).` : "."),
          { details: { field: "name" } },
        );
      case "invalid": {
        const issues = result.issues.map(
          (issue) => `payload${issue.path === "" ? "" : `.${issue.path}`}: ${issue.message}`,
        );
        throw new CycliumError("invalid_input", `Invalid signal payload: ${issues.join("; ")}`, {
          details: { field: issues[0]?.split(":")[0] ?? "payload" },
        });
      }
    }
  });
}
