export { envScopeSql } from "./env-scope";
export {
  resolveScope,
  scopeFragment,
  scopeSql,
  type NodeScope,
  type ScopeColumns,
  type ScopeOverrides,
} from "./resolve-scope";
export { assertColumn, SqlParams, type SqlFragment } from "./sql-params";
export { stackScopeSql } from "./stack-scope";
export { DEFAULT_LIVE_WITHIN_MS, MAX_NODE_IDENTITY_LENGTH } from "./node-limits";
