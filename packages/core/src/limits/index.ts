export {
  ZConcurrency,
  ZRateLimit,
  type Concurrency,
  type LimitDeclaration,
  type LimitKeyFn,
  type RateLimit,
} from "./limit-definition";
export {
  actorGlobalRule,
  claimCap,
  declaresLimit,
  limitRulesFor,
  type LimitedEpisode,
  type LimitRule,
  type LimitScopes,
} from "./limit-rules";
export {
  limitGateSql,
  limitRulesParam,
  toLimitWait,
  ZLimitWait,
  type LimitWait,
} from "./limit-gate-sql";
export type { FreedLimit, LimitFreedListener } from "./freed-limit";
