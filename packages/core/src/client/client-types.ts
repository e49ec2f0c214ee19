import type { ActorDefinition, ExpectationDefinition } from "../actors/index";
import type { Deployment } from "../deployment/index";
import type { Episode } from "../episodes/index";
import type { Execution } from "../triggers/index";
import type { EpisodeResult, ResultOptions } from "./episode-results";

/** The actors a deployment declares, as a union; any actor for an untyped client. */
export type ActorOf<D extends Deployment> = D["actors"][number];

export type ActorIdOf<D extends Deployment> = ActorOf<D>["identifier"];

export type ExpectationOf<D extends Deployment, A extends string> =
  Extract<ActorOf<D>, { identifier: A }> extends ActorDefinition<string, infer E> ? E : never;

export type ExpectationIdOf<D extends Deployment, A extends string> = ExpectationOf<D, A>["id"];

/** The input a fire carries: what the expectation's schema accepts, or anything without one. */
export type InputOf<D extends Deployment, A extends string, E extends string> =
  Extract<ExpectationOf<D, A>, { id: E }> extends ExpectationDefinition<string, infer I>
    ? I
    : unknown;

/** `input` is required when the expectation's schema does not accept `undefined`. */
type InputField<I> = unknown extends I
  ? { input?: unknown }
  : undefined extends I
    ? { input?: I }
    : { input: I };

export type ClientFireOptions<D extends Deployment, A extends string, E extends string> = {
  actorId: A;
  expectationId: E;
  /**
   * Makes the fire idempotent (SPEC section 3): a second fire with the same key while the first
   * episode is live (not archived) is `deduped`. Without one, every fire creates an episode.
   */
  idempotencyKey?: string | undefined;
  /** Not started before this time (the database's clock decides). */
  runAt?: Date | string | undefined;
  /** Not started before this many ms from now; counted after `runAt` when both are given. */
  delayMs?: number | undefined;
  /** 0..10, higher first (FIFO within one); default the expectation's `priority`, else 0. */
  priority?: number | undefined;
} & InputField<InputOf<D, A, E>>;

export type ClientFireResult =
  /** The episode is `pending` with its trigger request: a full-mode worker of its scope runs it. */
  (
    | { kind: "created"; episodeId: string; requestId: string; episode: Episode }
    /**
     * A live episode with this idempotency key exists: `episodeId` is that episode (undefined when
     * it was archived in the meantime).
     */
    | { kind: "deduped"; dedupeKey: string; episodeId: string | undefined }
  ) & {
    /** Waits for the episode (the one created, or the one the fire was deduplicated to) to end. */
    result(options?: ResultOptions): Promise<EpisodeResult>;
  };

export type TriggerCommandResult<K extends "paused" | "resumed"> =
  | { kind: K; tenantId: string; name: string }
  | { kind: "not_found"; tenantId: string; name: string };

export type ClientFireTriggerResult =
  | { kind: "fired"; tenantId: string; name: string; executions: Execution[] }
  /** Nothing started. A manual fire is never deduplicated, so this is not expected today. */
  | { kind: "deduped"; tenantId: string; name: string }
  | { kind: "not_found"; tenantId: string; name: string }
  /** Its workflow is not in this client's deployment (a paused trigger still fires). */
  | { kind: "conflict"; tenantId: string; name: string; message: string };

export interface TriggerRef {
  name: string;
  /** The tenant (env) of the trigger; `default` is the env-less one. */
  tenantId?: string | undefined;
}
