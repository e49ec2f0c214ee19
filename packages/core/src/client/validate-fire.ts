import { findExpectation } from "../actors/index";
import type { Deployment } from "../deployment/index";
import { CycliumError } from "../errors/index";

export interface ValidatedFire {
  actorId: string;
  expectationId: string;
  input: unknown;
  idempotencyKey?: string;
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
  const { actorId, expectationId, input, idempotencyKey } = request as Record<string, unknown>;
  if (typeof actorId !== "string" || actorId === "") {
    throw invalid("actorId", "must be a non-empty string");
  }
  if (typeof expectationId !== "string" || expectationId === "") {
    throw invalid("expectationId", "must be a non-empty string");
  }
  if (idempotencyKey !== undefined && typeof idempotencyKey !== "string") {
    throw invalid("idempotencyKey", "must be a string");
  }
  const base = {
    actorId,
    expectationId,
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  };
  if (deployment === undefined) return { ...base, input };
  const actor = deployment.actors.find((candidate) => candidate.identifier === actorId);
  if (actor === undefined) {
    const known = deployment.actors.map((candidate) => candidate.identifier).join(", ");
    throw invalid("actorId", `unknown actor "${actorId}" (the deployment has: ${known})`);
  }
  const expectation = findExpectation(actor, expectationId);
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

function invalid(field: string, problem: string): CycliumError {
  return new CycliumError("invalid_input", `Invalid fire: ${field}: ${problem}`, {
    details: { field },
  });
}
