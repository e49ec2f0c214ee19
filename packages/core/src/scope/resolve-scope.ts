import { envScopeSql } from "./env-scope";
import { SqlParams, type SqlFragment } from "./sql-params";
import { stackScopeSql } from "./stack-scope";

/** The stack and env a node runs as; `null` is the unset value. */
export interface NodeScope {
  stack: string | null;
  env: string | null;
}

/**
 * Per-call overrides. `undefined` (or absent) keeps the node's value; `null` explicitly means
 * the unset stack/env, e.g. `{ sourceEnv: null }` inspects the default env from an `rc` node.
 */
export interface ScopeOverrides {
  sourceStack?: string | null | undefined;
  sourceEnv?: string | null | undefined;
}

export function resolveScope(node: NodeScope, overrides: ScopeOverrides = {}): NodeScope {
  return {
    stack: overrides.sourceStack === undefined ? node.stack : overrides.sourceStack,
    env: overrides.sourceEnv === undefined ? node.env : overrides.sourceEnv,
  };
}

export interface ScopeColumns {
  stack?: string;
  env?: string;
}

/**
 * The WHERE fragment for a stack- and env-scoped query (`source_stack` / `source_env` unless
 * told otherwise), appending its values to `params`.
 */
export function scopeSql(scope: NodeScope, params: SqlParams, columns: ScopeColumns = {}): string {
  const stack = stackScopeSql(columns.stack ?? "source_stack", scope.stack, params);
  const env = envScopeSql(columns.env ?? "source_env", scope.env, params);
  return `${stack} AND ${env}`;
}

/** `scopeSql` for callers that number their own parameters: placeholders start after `offset`. */
export function scopeFragment(
  scope: NodeScope,
  offset = 0,
  columns: ScopeColumns = {},
): SqlFragment {
  const params = new SqlParams(new Array<unknown>(offset).fill(undefined));
  const text = scopeSql(scope, params, columns);
  return { text, values: params.values.slice(offset) };
}
