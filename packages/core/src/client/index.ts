// A client for any process (SPEC section 13): fire, cancel, retry, archive, pause, resume and
// fire triggers without running a node, typed by the deployment.
export {
  createClient,
  type ClientConnection,
  type CreateClientOptions,
  type CycliumClient,
} from "./create-client";
export type {
  ActorIdOf,
  ExpectationIdOf,
  ClientFireOptions,
  ClientFireResult,
  ClientFireTriggerResult,
  InputOf,
  TriggerCommandResult,
  TriggerRef,
} from "./client-types";
export type { EpisodeResult, ResultOptions } from "./episode-results";
export type { SendSignalResult } from "../waits/index";
export { validateFire, type ValidatedFire } from "./validate-fire";
