-- Issue 28: an episode fired by a node without a stack (CYCLIUM_STACK_SLUG unset, the common case)
-- has no source_stack, and nothing reads such rows through the stack index: the stack filter
-- compares source_stack with a value, the facets skip NULL. Leaving them out saves every such
-- episode an entry at its insert and at each of its non-HOT updates (2 per drained item, about
-- 220 WAL bytes). The same columns, the same order; a rolling upgrade reads it as before.
DROP INDEX "cyclium_episodes_env_stack_inserted_at_id_idx";
CREATE INDEX "cyclium_episodes_env_stack_inserted_at_id_idx"
    ON "cyclium_episodes"("source_env", "source_stack", "inserted_at" DESC, "id" DESC)
    WHERE "source_stack" IS NOT NULL;
