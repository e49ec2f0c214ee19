-- Who holds a pending episode in its in-memory queue (docs/queues-and-recovery.md). A pending
-- episode is owned either by an open trigger request or, when a full node fired or restarted it
-- locally, by that node's queue: queued_by is the node identity and queued_at the time it took
-- the episode. Before this column only the process knew, so a crash or a failed start left the
-- episode pending for good with its dedupe key still live.
ALTER TABLE "cyclium_episodes" ADD COLUMN "queued_by" VARCHAR(255);
ALTER TABLE "cyclium_episodes" ADD COLUMN "queued_at" TIMESTAMPTZ(6);

-- SQL-only (partial): a node refilling its queue reads its own pending rows of an actor oldest
-- first, and the adoption of a gone node's queue reads the pending owned rows; neither wants the
-- finished history, which is nearly all of the table.
CREATE INDEX "cyclium_episodes_queued_idx"
    ON "cyclium_episodes"("queued_by", "actor_id", "inserted_at", "id")
    WHERE "status" = 'pending' AND "queued_by" IS NOT NULL;
