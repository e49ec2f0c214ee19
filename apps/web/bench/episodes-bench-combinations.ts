import type { EpisodeListFilters } from "@cyclium/core/console";

export interface TBenchCombination {
  name: string;
  filters: EpisodeListFilters;
  /** Time the page after walking this many pages from the newest. */
  deepPages?: number;
}

const day = 86_400_000;
const now = Date.now();

/**
 * Every filter of the list alone, the combinations an operator uses together, and the worst
 * cases for an index walk: rare combinations (few matches, long scans), no match at all, an
 * empty time window, a deep page, and another env.
 */
export const BENCH_COMBINATIONS: readonly TBenchCombination[] = [
  { name: "no filter (default env)", filters: { env: null } },
  { name: "env=staging", filters: { env: "staging" } },
  { name: "env=rc", filters: { env: "rc" } },
  { name: "status=failed", filters: { env: null, status: "failed" } },
  { name: "status=cancelled (rare)", filters: { env: null, status: "cancelled" } },
  { name: "status=pending", filters: { env: null, status: "pending" } },
  { name: "status=completed (most)", filters: { env: null, status: "completed" } },
  {
    name: "status=completed + actor, env=rc",
    filters: { env: "rc", status: "completed", actorId: "actor_07" },
  },
  { name: "actor", filters: { env: null, actorId: "actor_07" } },
  {
    name: "actor + expectation",
    filters: { env: null, actorId: "actor_07", expectationId: "expectation_1" },
  },
  { name: "trigger=manual", filters: { env: null, triggerType: "manual" } },
  { name: "stack=green", filters: { env: null, stack: "green" } },
  { name: "last 24 h", filters: { env: null, from: new Date(now - day) } },
  {
    name: "a day 20 days ago",
    filters: { env: null, from: new Date(now - 21 * day), to: new Date(now - 20 * day) },
  },
  { name: "status=failed + actor", filters: { env: null, status: "failed", actorId: "actor_03" } },
  {
    name: "status=cancelled + actor + expectation",
    filters: {
      env: null,
      status: "cancelled",
      actorId: "actor_03",
      expectationId: "expectation_2",
    },
  },
  {
    name: "actor + trigger=workflow",
    filters: { env: null, actorId: "actor_03", triggerType: "workflow" },
  },
  {
    name: "status=pending + trigger=manual + stack=green",
    filters: { env: null, status: "pending", triggerType: "manual", stack: "green" },
  },
  {
    name: "all filters + last 7 days",
    filters: {
      env: null,
      status: "failed",
      actorId: "actor_18",
      expectationId: "expectation_0",
      triggerType: "manual",
      stack: "green",
      from: new Date(now - 7 * day),
    },
  },
  {
    name: "status=failed + last 24 h, env=rc",
    filters: { env: "rc", status: "failed", from: new Date(now - day) },
  },
  { name: "unknown actor (empty)", filters: { env: null, actorId: "no_such_actor" } },
  {
    name: "actor of another env only (empty)",
    filters: { env: null, actorId: "staging_only_actor" },
  },
  {
    name: "empty window a year ago",
    filters: { env: null, from: new Date(now - 400 * day), to: new Date(now - 365 * day) },
  },
  { name: "archived", filters: { env: null, archived: true } },
  { name: "page 200 (no filter)", filters: { env: null }, deepPages: 200 },
  { name: "page 50 (status=failed)", filters: { env: null, status: "failed" }, deepPages: 50 },
  // The search bar's qualifiers (docs/console-search.md). The seed's episode i has dedupe key
  // bench:i and input {order: "O-i", region: eu|us|apac|latam}; i = 500,011 is in the unset env
  // and not archived. actor_08 runs only with region eu (i % 20 = 8), actor_07 never does.
  { name: "search key:bench:500011", filters: { env: null, dedupeKey: "bench:500011" } },
  { name: "search id:<4 hex digits>", filters: { env: null, idPrefix: "3f2a" } },
  {
    name: "search input.order:O-500011 (one)",
    filters: { env: null, input: [{ path: ["order"], value: "O-500011" }] },
  },
  {
    name: "search input.region:eu (a quarter)",
    filters: { env: null, input: [{ path: ["region"], value: "eu" }] },
  },
  {
    name: "search input.region:eu status:cancelled",
    filters: { env: null, status: "cancelled", input: [{ path: ["region"], value: "eu" }] },
  },
  {
    name: "search input.region:mars (empty)",
    filters: { env: null, input: [{ path: ["region"], value: "mars" }] },
  },
  {
    name: "search actor_08 + input.region:eu, page 20",
    filters: { env: null, actorId: "actor_08", input: [{ path: ["region"], value: "eu" }] },
    deepPages: 20,
  },
  {
    name: "search actor_07 + input.region:eu (empty)",
    filters: { env: null, actorId: "actor_07", input: [{ path: ["region"], value: "eu" }] },
  },
];

/** The list's total (countEpisodes: exact up to 10,000, else estimated) for these filters. */
export const BENCH_COUNTS: readonly TBenchCombination[] = [
  { name: "count: no filter (estimated)", filters: { env: null } },
  { name: "count: status=cancelled (estimated)", filters: { env: null, status: "cancelled" } },
  {
    name: "count: actor + expectation + completed",
    filters: {
      env: "rc",
      status: "completed",
      actorId: "actor_07",
      expectationId: "expectation_1",
    },
  },
  {
    name: "count: actor + expectation + failed (exact)",
    filters: { env: null, status: "failed", actorId: "actor_03", expectationId: "expectation_2" },
  },
  {
    name: "count: input.region:eu (estimated)",
    filters: { env: null, input: [{ path: ["region"], value: "eu" }] },
  },
  {
    name: "count: input.order:O-500011 (exact)",
    filters: { env: null, input: [{ path: ["order"], value: "O-500011" }] },
  },
];
