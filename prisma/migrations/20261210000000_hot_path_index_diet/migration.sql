-- Issue 15: fewer index entries and less WAL per episode on the hot path, with every read that
-- needs an index keeping one. A row update is HOT (no index entry, usually no new page) only
-- when no indexed column changes, including the columns of a partial index's predicate; every
-- non-HOT update adds an entry to every index the new row version belongs to. So:
--   * indexes on states a row passes through briefly are partial on that state (an episode's
--     or request's later updates leave them, adding nothing),
--   * indexes nothing reads any more are dropped,
--   * columns the lease renewal rewrites (lease_until) are in no index, so renewal is HOT.

-- Time-ordered episode ids (UUID version 7: 48 bits of Unix milliseconds, then random bits).
-- New keys land at the right edge of the primary key, of the claims' `episode:<id>` keys and of
-- every index that carries an episode id, as on an empty table, instead of on a random leaf page
-- of an index that spans all history (each such page costs a full-page image in the WAL after a
-- checkpoint, and often a read). PostgreSQL 18's uuidv7() does the same; this works from 13 on.
CREATE FUNCTION cyclium_uuidv7() RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT encode(
    set_bit(set_bit(
      overlay(uuid_send(gen_random_uuid())
              PLACING substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
              FROM 1 FOR 6),
      52, 1), 53, 1),
    'hex')::uuid
$$;
ALTER TABLE "cyclium_episodes" ALTER COLUMN "id" SET DEFAULT cyclium_uuidv7();

-- Work claims. The renewal sets lease_until only; with lease_until in no index and free room
-- on each page (fillfactor), it is a HOT update. The sweep of lapsed claims and the console's
-- "claimed" filter read the claimed rows through a partial index (there are at most as many as
-- episodes running); a rare `failed` filter has its own partial index; `done`, the common
-- state, is read through the (updated_at, id) list index.
DROP INDEX "cyclium_work_claims_state_lease_until_idx";
CREATE INDEX "cyclium_work_claims_claimed_idx" ON "cyclium_work_claims"("owner_node")
    WHERE "state" = 'claimed';
CREATE INDEX "cyclium_work_claims_failed_idx" ON "cyclium_work_claims"("updated_at" DESC, "id" DESC)
    WHERE "state" = 'failed';
ALTER TABLE "cyclium_work_claims" SET (fillfactor = 80);

-- Trigger requests: (status, inserted_at) took an entry on each of a request's two updates.
-- Pending requests (the expiry's oldest-first walk) and claimed ones (completion, release) each
-- get a partial index, which a request enters once and the drain's updates leave.
DROP INDEX "cyclium_trigger_requests_status_inserted_at_idx";
CREATE INDEX "cyclium_trigger_requests_pending_idx" ON "cyclium_trigger_requests"("inserted_at")
    WHERE "status" = 'pending';
CREATE INDEX "cyclium_trigger_requests_claimed_idx" ON "cyclium_trigger_requests"("claimed_by")
    WHERE "status" = 'claimed';

-- Steps: the unique (episode_id, attempt, step_no) index answers every read by episode,
-- including the recovery sweep's newest step of a running episode (a handful of rows each).
DROP INDEX "cyclium_episode_steps_episode_id_inserted_at_idx";

-- Episodes: every list is env-scoped and uses the (source_env, ...) indexes; the unscoped
-- (inserted_at, id) index was read by nothing. Most episodes belong to no workflow: the
-- workflow index holds only those that do.
DROP INDEX "cyclium_episodes_inserted_at_id_idx";
DROP INDEX "cyclium_episodes_workflow_instance_id_idx";
CREATE INDEX "cyclium_episodes_workflow_instance_id_idx" ON "cyclium_episodes"("workflow_instance_id")
    WHERE "workflow_instance_id" IS NOT NULL;
