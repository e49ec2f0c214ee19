-- The console's episode list (SPEC section 10) always reads one env (section 8: strict env
-- scoping), then filters by status, actor/expectation, trigger type or stack, newest first, by
-- keyset on (inserted_at, id). Each filter gets an index that leads with source_env, then the
-- filtered column, then the sort key, so a list walks one index in order and stops after a page
-- (apps/web/bench/episodes-list-bench.ts measures every combination on 1,000,000 episodes).
--
-- The list orders by (source_env, inserted_at, id): `source_env IS NULL` (the unset env) is not
-- an equality, so without source_env in the ORDER BY the planner cannot see that these indexes
-- return rows in time order and falls back to walking all episodes by time with a filter, which
-- took 0.4-1 s at 1M episodes whenever the filtered value was rare in that env.
CREATE INDEX "cyclium_episodes_env_status_inserted_at_id_idx"
    ON "cyclium_episodes"("source_env", "status", "inserted_at" DESC, "id" DESC);
-- expectation_id trails the sort key: filtering by an actor alone still walks in time order, and
-- an expectation is checked inside the index without visiting the table.
CREATE INDEX "cyclium_episodes_env_actor_inserted_at_id_idx"
    ON "cyclium_episodes"("source_env", "actor_id", "inserted_at" DESC, "id" DESC, "expectation_id");
CREATE INDEX "cyclium_episodes_env_trigger_type_inserted_at_id_idx"
    ON "cyclium_episodes"("source_env", "trigger_type", "inserted_at" DESC, "id" DESC);
CREATE INDEX "cyclium_episodes_env_stack_inserted_at_id_idx"
    ON "cyclium_episodes"("source_env", "source_stack", "inserted_at" DESC, "id" DESC);

-- Superseded by the env-leading indexes above: every episode read is env-scoped, and each index
-- costs a write on every status change of the hot path.
DROP INDEX "cyclium_episodes_status_inserted_at_id_idx";
DROP INDEX "cyclium_episodes_actor_expectation_inserted_at_id_idx";
