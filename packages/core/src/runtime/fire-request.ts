import { z } from "zod";
import { MAX_FIRE_DELAY_MS, ZPriority } from "../actors/index";

export { MAX_FIRE_DELAY_MS };
import { MAX_DEDUPE_KEY_LENGTH } from "../claims/index";
import { CycliumError } from "../errors/index";
import { dedupeKey } from "../episodes/index";

export const FIRE_TRIGGER_TYPES = ["manual", "event", "schedule", "poll", "workflow"] as const;

/**
 * What `ActorHost.fire` accepts. Triggered fires carry what their dedupe key is made of: the bus
 * event (its id is fixed at publish, so every node derives the same key), the scheduled instant,
 * or the poll context. A manual fire is deduplicated only when it gives an idempotency key.
 */
export const ZFireRequest = z
  .object({
    actorId: z.string().min(1).max(255),
    expectationId: z.string().min(1).max(255),
    triggerType: z.enum(FIRE_TRIGGER_TYPES),
    input: z.unknown().optional(),
    idempotencyKey: z.string().min(1).max(255).optional(),
    workflowInstanceId: z.uuid().optional(),
    workflowStep: z.string().min(1).max(255).optional(),
    event: z.object({ id: z.string().min(1), payload: z.unknown() }).optional(),
    scheduledAt: z.date().optional(),
    pollContext: z.unknown().optional(),
    /** SPEC section 16: not started before runAt (+ delayMs); deferred to the cluster's queue. */
    runAt: z.date().optional(),
    delayMs: z.number().int().min(0).max(MAX_FIRE_DELAY_MS).optional(),
    /** Higher first on the deferred queue; default the expectation's priority, else 0. */
    priority: ZPriority.optional(),
  })
  .superRefine((request, ctx) => {
    if (request.triggerType === "event" && request.event === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["event"],
        message: "an event fire needs the bus event",
      });
    }
    if (request.triggerType === "schedule" && request.scheduledAt === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["scheduledAt"],
        message: "a schedule fire needs the scheduled instant",
      });
    }
  });

export type TFireRequest = z.input<typeof ZFireRequest>;
export type TParsedFireRequest = z.output<typeof ZFireRequest>;

/**
 * What a fire did. Core's results are unions told apart by `kind` (issue 12): a `switch` over
 * `kind` with no default makes a forgotten case a compile error, and expected outcomes (a
 * duplicate, a full queue that drops) are values, never throws.
 */
export type FireResult =
  | { kind: "created"; episodeId: string; deferred: boolean }
  /** A live episode with the same dedupe key exists (another node won, or a repeat fire). */
  | { kind: "deduped"; dedupeKey: string }
  /** The actor's queue here is full and its overflow policy is `drop`: nothing was created. */
  | { kind: "dropped"; actorId: string; reason: "queue_full" };

export function parseFireRequest(request: TFireRequest): TParsedFireRequest {
  const parsed = ZFireRequest.safeParse(request);
  if (!parsed.success) {
    throw new CycliumError(
      "invalid_input",
      `Invalid fire request: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(request)"}: ${i.message}`).join("; ")}`,
    );
  }
  return parsed.data;
}

/** The SPEC section 3 key for a fire; workflow steps get one of their own shape. */
export function fireDedupeKey(request: TParsedFireRequest, env: string | null): string | null {
  const base = { actorId: request.actorId, expectationId: request.expectationId, env };
  switch (request.triggerType) {
    case "manual":
      return dedupeKey({
        ...base,
        trigger: "manual",
        idempotencyKey: request.idempotencyKey ?? null,
      });
    case "event":
      return dedupeKey({
        ...base,
        trigger: "event",
        event: request.event ?? { id: "", payload: null },
      });
    case "schedule":
      return dedupeKey({
        ...base,
        trigger: "schedule",
        window: request.scheduledAt ?? new Date(NaN),
      });
    case "poll":
      return dedupeKey({ ...base, trigger: "poll", context: request.pollContext });
    case "workflow":
      return workflowDedupeKey(request, env);
  }
}

/**
 * Every node's workflow engine sees the same `episode.completed` and would start the next step:
 * the key (instance + step, or the engine's idempotency key, e.g. with a retry number) lets one
 * insert win, as for events.
 */
function workflowDedupeKey(request: TParsedFireRequest, env: string | null): string | null {
  const identity =
    request.idempotencyKey ??
    (request.workflowInstanceId !== undefined && request.workflowStep !== undefined
      ? `${request.workflowInstanceId}:${request.workflowStep}`
      : undefined);
  if (identity === undefined) return null;
  let key = `workflow:${request.actorId}:${request.expectationId}:${identity}`;
  if (env !== null) key = `${key}@${env}`;
  if (key.length > MAX_DEDUPE_KEY_LENGTH) {
    throw new CycliumError(
      "invalid_input",
      `dedupe key longer than ${MAX_DEDUPE_KEY_LENGTH} characters`,
    );
  }
  return key;
}
