import type { LimitDeclaration, LimitKeyFn } from "./limit-definition";

/**
 * One rule the start statement's gate checks, in the compact shape it takes as JSON: `k` the
 * limit key, `c` concurrency or rate, `l` the limit, `p` a rate limit's period in ms.
 */
export interface LimitRule {
  k: string;
  c: "concurrency" | "rate";
  l: number;
  p?: number;
}

/** What the rules of an episode are computed from. */
export interface LimitedEpisode {
  actorId: string;
  expectationId: string;
  sourceEnv: string | null;
  input: unknown;
}

/** The actor's and the expectation's declarations; either may be absent. */
export interface LimitScopes {
  actor?: LimitDeclaration | undefined;
  expectation?: LimitDeclaration | undefined;
}

/** A key function that throws or returns a non-string still gives a key: the episode waits. */
function keyOf(fn: LimitKeyFn, input: unknown): string {
  try {
    const key = fn(input);
    return typeof key === "string" ? key : String(key);
  } catch {
    return "<key function threw>";
  }
}

function rulesOf(scope: string, declaration: LimitDeclaration, input: unknown): LimitRule[] {
  const rules: LimitRule[] = [];
  const { concurrency, rateLimit } = declaration;
  if (concurrency?.global !== undefined) {
    rules.push(globalRule(scope, concurrency.global));
  }
  if (concurrency?.perKey !== undefined) {
    const key = keyOf(concurrency.perKey.key, input);
    rules.push({ k: `key:${scope}:${key}`, c: "concurrency", l: concurrency.perKey.limit });
  }
  if (rateLimit !== undefined) {
    const key = rateLimit.key === undefined ? "" : `:${keyOf(rateLimit.key, input)}`;
    rules.push({ k: `rate:${scope}${key}`, c: "rate", l: rateLimit.limit, p: rateLimit.periodMs });
  }
  return rules;
}

function globalRule(scope: string, limit: number): LimitRule {
  return { k: `global:${scope}`, c: "concurrency", l: limit };
}

/** The scope of an actor's own rules: keys are scoped by env. */
function actorScopeOf(actorId: string, env: string | null): string {
  return `${env ?? ""}/${actorId}`;
}

/**
 * The rules an episode's start must pass: its actor's, then its expectation's. Keys are scoped
 * by env, so a staging cluster sharing the database never takes a production slot. Empty when
 * neither declares a limit (the start statement then skips the gate for it).
 */
export function limitRulesFor(episode: LimitedEpisode, scopes: LimitScopes): LimitRule[] {
  const actorScope = actorScopeOf(episode.actorId, episode.sourceEnv);
  return [
    ...(scopes.actor ? rulesOf(actorScope, scopes.actor, episode.input) : []),
    ...(scopes.expectation
      ? rulesOf(`${actorScope}/${episode.expectationId}`, scopes.expectation, episode.input)
      : []),
  ];
}

/**
 * The most of an actor's episodes that could start at once under its own unkeyed limits (its
 * `global` concurrency, its unkeyed rate limit), or undefined. A node claims no more than this
 * for the actor in one go: the gate would refuse the rest, and each refusal is a write.
 */
export function claimCap(actor: LimitDeclaration): number | undefined {
  const caps = [
    actor.concurrency?.global,
    actor.rateLimit?.key ? undefined : actor.rateLimit?.limit,
  ];
  const set = caps.filter((cap): cap is number => cap !== undefined);
  return set.length === 0 ? undefined : Math.min(...set);
}

/** Whether a declaration limits anything. */
export function declaresLimit(declaration: LimitDeclaration | undefined): boolean {
  return declaration?.concurrency !== undefined || declaration?.rateLimit !== undefined;
}

/**
 * The actor's own `global` concurrency rule in an env (the same key every episode of the actor
 * holds there), or undefined. A poll takes no more of the actor's requests than that limit has
 * room for now (pickDueRequests' `room`): the gate would refuse the rest, each refusal a write.
 */
export function actorGlobalRule(
  actorId: string,
  env: string | null,
  actor: LimitDeclaration,
): LimitRule | undefined {
  const global = actor.concurrency?.global;
  return global === undefined ? undefined : globalRule(actorScopeOf(actorId, env), global);
}
