-- Issue 28: the status list index leaves out completed episodes. Nearly every episode ends
-- completed, so that end added an entry to an index whose completed part repeats the env's
-- time-ordered index (cyclium_episodes_source_env_inserted_at_id_idx): the status=completed list
-- walks that one and skips the few others. The states an operator filters for (failed,
-- cancelled, pending, running, waiting) keep their entries. One index entry less per drained
-- item: about 160 WAL bytes with its share of page splits. The same columns and order; a
-- previous release's list reads it as before (its completed list walks the time index).
DROP INDEX "cyclium_episodes_env_status_inserted_at_id_idx";
CREATE INDEX "cyclium_episodes_env_status_inserted_at_id_idx"
    ON "cyclium_episodes"("source_env", "status", "inserted_at" DESC, "id" DESC)
    WHERE "status" <> 'completed';
