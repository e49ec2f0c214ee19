import { MAX_DEDUPE_KEY_LENGTH } from "../claims/index";
import { assertNever, CycliumError } from "../errors/index";
import { canonicalHash } from "./canonical-json";

interface DedupeKeyBase {
  actorId: string;
  expectationId: string;
  /** The node's env; `@{env}` is appended when set, so each env runs its own episodes. */
  env: string | null;
}

export type DedupeKeyInput = DedupeKeyBase &
  (
    | { trigger: "schedule"; /** The scheduled fire instant. */ window: Date }
    | {
        trigger: "event";
        /**
         * The event as published: its id is fixed at publish time, so hashing `{ id, payload }`
         * gives the same key on every node, and two events with equal payloads stay distinct.
         */
        event: { id: string; payload: unknown };
      }
    | {
        trigger: "poll";
        /** What the poll saw; no context hashes to a fixed value. */ context?: unknown;
      }
    | { trigger: "manual"; idempotencyKey?: string | null }
  );

/**
 * The deterministic key of SPEC section 3. Every node computes the same key for the same firing,
 * and the partial unique index on `cyclium_episodes.dedupe_key` lets one insert win. Returns null
 * for a manual fire without an idempotency key: such fires are never deduplicated.
 */
export function dedupeKey(input: DedupeKeyInput): string | null {
  const prefix = `${input.actorId}:${input.expectationId}`;
  let key: string;
  switch (input.trigger) {
    case "schedule":
      key = `schedule:${prefix}:${scheduleWindow(input.window)}`;
      break;
    case "event":
      key = `event:${prefix}:${canonicalHash({ id: input.event.id, payload: input.event.payload })}`;
      break;
    case "poll":
      key = `poll:${prefix}:${canonicalHash(input.context ?? null)}`;
      break;
    case "manual":
      if (input.idempotencyKey === undefined || input.idempotencyKey === null) return null;
      key = `manual:${prefix}:${input.idempotencyKey}`;
      break;
    default:
      return assertNever(input, "trigger");
  }
  if (input.env !== null) key = `${key}@${input.env}`;
  if (key.length > MAX_DEDUPE_KEY_LENGTH) {
    throw new CycliumError(
      "invalid_input",
      `dedupe key is ${key.length} characters, more than the ${MAX_DEDUPE_KEY_LENGTH} the database holds`,
    );
  }
  return key;
}

/** ISO-8601 UTC to the minute, e.g. `2026-11-29T09:00Z`: seconds never split a window. */
export function scheduleWindow(instant: Date): string {
  if (Number.isNaN(instant.getTime())) {
    throw new CycliumError("invalid_input", "schedule window is not a valid date");
  }
  return `${instant.toISOString().slice(0, 16)}Z`;
}
