import { findExpectation, MAX_FIRE_DELAY_MS, MAX_PRIORITY, MIN_PRIORITY } from "../actors/index";
import type { Deployment } from "../deployment/index";
import { CycliumError } from "../errors/index";

export interface ValidatedFire {
  actorId: string;
  expectationId: string;
  input: unknown;
  idempotencyKey?: string;
  /** When and in what order a worker starts it (SPEC section 16). */
  timing: { runAt?: Date; delayMs?: number; priority?: number };
}

/**
 * What TypeScript checks at compile time, checked again at run time for plain JavaScript (and
 * casts): the actor and expectation exist in the deployment and the input passes the
 * expectation's schema, whose parsed output (defaults applied) is what the episode stores.
 * Without a deployment only the shape of the request is checked (dynamic actors live in the
 * database, not in code). Throws `invalid_input` naming the field.
 */
export function validateFire(request: unknown, deployment: Deployment | undefined): ValidatedFire {
  if (typeof request !== "object" || request === null) {
    throw invalid("(request)", "fire needs an object { actorId, expectationId, input? }");
  }
  const { actorId, expectationId, input, idempotencyKey, runAt, delayMs, priority } =
    request as Record<string, unknown>;
  if (typeof actorId !== "string" || actorId === "") {
    throw invalid("actorId", "must be a non-empty string");
  }
  if (typeof expectationId !== "string" || expectationId === "") {
    throw invalid("expectationId", "must be a non-empty string");
  }
  if (idempotencyKey !== undefined && typeof idempotencyKey !== "string") {
    throw invalid("idempotencyKey", "must be a string");
  }
  const timing = validateTiming(runAt, delayMs, priority);
  const base = {
    actorId,
    expectationId,
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    timing,
  };
  if (deployment === undefined) return { ...base, input };
  const actor = deployment.actors.find((candidate) => candidate.identifier === actorId);
  if (actor === undefined) {
    const known = deployment.actors.map((candidate) => candidate.identifier).join(", ");
    throw invalid("actorId", `unknown actor "${actorId}" (the deployment has: ${known})`);
  }
  const expectation = findExpectation(actor, expectationId);
  if (
    expectation !== undefined &&
    timing.priority === undefined &&
    expectation.priority !== undefined
  ) {
    timing.priority = expectation.priority;
  }
  if (expectation === undefined) {
    const known = actor.expectations.map((candidate) => candidate.id).join(", ");
    throw invalid(
      "expectationId",
      `actor "${actorId}" has no expectation "${expectationId}" (it has: ${known})`,
    );
  }
  if (expectation.input === undefined) return { ...base, input };
  const parsed = expectation.input.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ["input", ...(issue?.path ?? []).map(String)].join(".");
    throw invalid(field, issue?.message ?? "does not match the expectation's input schema");
  }
  return { ...base, input: parsed.data };
}

function validateTiming(
  runAt: unknown,
  delayMs: unknown,
  priority: unknown,
): ValidatedFire["timing"] {
  const timing: ValidatedFire["timing"] = {};
  if (runAt !== undefined) {
    const at = runAt instanceof Date ? runAt : typeof runAt === "string" ? new Date(runAt) : null;
    if (at === null || Number.isNaN(at.getTime())) {
      throw invalid("runAt", "must be a Date or an ISO 8601 date-time string");
    }
    timing.runAt = at;
  }
  if (delayMs !== undefined) {
    if (
      typeof delayMs !== "number" ||
      !Number.isInteger(delayMs) ||
      delayMs < 0 ||
      delayMs > MAX_FIRE_DELAY_MS
    ) {
      throw invalid("delayMs", `must be an integer from 0 to ${MAX_FIRE_DELAY_MS} (a year)`);
    }
    timing.delayMs = delayMs;
  }
  if (priority !== undefined) {
    if (
      typeof priority !== "number" ||
      !Number.isInteger(priority) ||
      priority < MIN_PRIORITY ||
      priority > MAX_PRIORITY
    ) {
      throw invalid("priority", `must be an integer from ${MIN_PRIORITY} to ${MAX_PRIORITY}`);
    }
    timing.priority = priority;
  }
  return timing;
}

function invalid(field: string, problem: string): CycliumError {
  return new CycliumError("invalid_input", `Invalid fire: ${field}: ${problem}`, {
    details: { field },
  });
}
