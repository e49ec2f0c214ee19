import type { ExpectationDefinition } from "../actors/index";
import type { InputIssue } from "../actors/input-schemas/validate-expectation-input";
import type { Connectable, Queryable } from "../db/index";
import { deliverSignal, type DeliverSignalResult } from "./deliver-signal";
import { validateSignal } from "./validate-signal";

export interface SendSignalOptions {
  episodeId: string;
  name: string;
  payload: unknown;
  idempotencyKey?: string | undefined;
  sentBy: string;
  /** Only an episode of this env (a REST tenant's): another env's is `not_found`. */
  env?: string | null | undefined;
  /**
   * The expectation an episode runs, from the deployment (or the console's registry). Undefined:
   * the caller does not know it (a client without a deployment): the payload is stored unchecked.
   */
  expectationOf?: (
    actorId: string,
    expectationId: string,
  ) => Pick<ExpectationDefinition, "signals"> | undefined;
}

export type SendSignalResult =
  | DeliverSignalResult
  /** The episode's expectation declares no signal of that name (`declared`: those it does). */
  | { kind: "unknown_signal"; declared: string[] }
  /** The payload fails the signal's schema: nothing stored. */
  | { kind: "invalid"; issues: InputIssue[] };

/**
 * The one front of signal delivery (SPEC section 17) for the client, REST, tRPC and the console:
 * finds the episode's expectation, validates name and payload against its `signals`, and
 * delivers the parsed payload (deliverSignal). Expected outcomes are values, never thrown.
 */
export async function sendSignal(
  options: SendSignalOptions,
  db: Queryable & Connectable,
  /** The caller's open transaction (e.g. its audit row's): the delivery joins it. */
  tx?: Queryable,
): Promise<SendSignalResult> {
  let payload = options.payload;
  if (options.expectationOf !== undefined || options.env !== undefined) {
    const { rows } = await (tx ?? db).query<{
      actor_id: string;
      expectation_id: string;
      source_env: string | null;
    }>(`SELECT actor_id, expectation_id, source_env FROM cyclium_episodes WHERE id = $1`, [
      options.episodeId,
    ]);
    const row = rows[0];
    if (row === undefined) return { kind: "not_found" };
    if (options.env !== undefined && row.source_env !== options.env) return { kind: "not_found" };
    if (options.expectationOf !== undefined) {
      const expectation = options.expectationOf(row.actor_id, row.expectation_id) ?? {};
      const checked = validateSignal({ expectation, name: options.name, payload });
      if (checked.kind !== "valid") return checked;
      payload = checked.payload;
    }
  }
  return deliverSignal(
    {
      episodeId: options.episodeId,
      name: options.name,
      payload,
      ...(options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey }),
      sentBy: options.sentBy,
    },
    db,
    tx,
  );
}
