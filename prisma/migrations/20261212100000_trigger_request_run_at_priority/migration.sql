-- SPEC section 16: delayed runs and priorities on the deferred queue. A request is claimed only
-- once its run_at has come (database clock), higher claim_priority first, then by run_at (FIFO
-- within one priority). `priority` is what the fire asked for; `claim_priority` starts equal and
-- rises with waiting (the rule against starvation, trigger-requests/age-trigger-requests.ts).
--
-- now() is stable, so the defaults are stored once in the catalogue: no table rewrite. Pending
-- rows take their inserted_at as run_at, so the backlog keeps its order.
ALTER TABLE "cyclium_trigger_requests"
    ADD COLUMN "run_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
    ADD COLUMN "priority" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "claim_priority" INTEGER NOT NULL DEFAULT 0;

UPDATE "cyclium_trigger_requests" SET "run_at" = "inserted_at" WHERE "status" = 'pending';

-- The claim walks one actor's pending requests in claim order and stops at its LIMIT.
DROP INDEX "cyclium_trigger_requests_pending_claim_idx";
CREATE INDEX "cyclium_trigger_requests_pending_claim_idx"
    ON "cyclium_trigger_requests"("actor_id", "claim_priority" DESC, "run_at", "id")
    WHERE "status" = 'pending';

-- Expiry (oldest due first), ageing and the poller's next due time read pending rows by run_at.
DROP INDEX "cyclium_trigger_requests_pending_idx";
CREATE INDEX "cyclium_trigger_requests_pending_idx" ON "cyclium_trigger_requests"("run_at")
    WHERE "status" = 'pending';
