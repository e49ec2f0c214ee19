// Claimed turns (issue 30): the one mechanism that runs timed work once across the cluster. A
// rule (a cron window, a poll interval) says when a turn is due; every node reads the stored
// `next_fire_at` and the one whose conditional update moves it on runs the turn. Deployment
// triggers claim theirs on `cyclium_triggers` (triggers/claim-trigger-turn.ts), an expectation's
// schedule or poll on `cyclium_expectation_turns` (below).
export { planCronTurn, planPollTurn, type TriggerTurn, type WindowRule } from "./plan-turn";
export {
  MemoryExpectationTurns,
  PostgresExpectationTurns,
  type ExpectationTurnClaim,
  type ExpectationTurnKey,
  type ExpectationTurnStore,
} from "./expectation-turn-store";
export {
  PollTurns,
  ScheduleTurns,
  type PollTurnsOptions,
  type ScheduleTurnsOptions,
} from "./expectation-turns";
