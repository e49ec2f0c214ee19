-- SPEC section 16: cluster-wide concurrency and rate limits, enforced by the database in the
-- statement that starts an episode (packages/core/src/limits/).
--
-- limit_keys: the concurrency keys a running episode holds (NULL for an episode without a
-- limit, so an unlimited workload writes nothing more and the partial index stays empty).
-- limit_wait: why its last start was refused (the key, the limit, a rate limit's period), for
-- the "why it waits" explanation; cleared when it starts. Both nullable: no table rewrite.
ALTER TABLE "cyclium_episodes"
    ADD COLUMN "limit_keys" TEXT[],
    ADD COLUMN "limit_wait" JSONB;

-- The gate counts the running episodes that hold a key through this index.
CREATE INDEX "cyclium_episodes_running_limit_keys_idx" ON "cyclium_episodes" USING GIN ("limit_keys")
    WHERE "status" = 'running' AND "limit_keys" IS NOT NULL;

-- One row per start of an episode under a rate limit, per key: the sliding window the gate
-- counts. The gate deletes a key's rows older than its period under the key's lock.
CREATE TABLE "cyclium_limit_starts" (
    "limit_key" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(6) NOT NULL,
    "episode_id" UUID NOT NULL,
    CONSTRAINT "cyclium_limit_starts_pkey" PRIMARY KEY ("limit_key", "started_at", "episode_id")
);

-- Which of a batch of episodes may start now (SPEC section 16). p_rules holds, per episode in
-- p_episode_ids order, an array of rules {"k": key, "c": "concurrency" | "rate", "l": limit,
-- "p": period ms} (null or [] when the episode has none). Returns one row per episode with
-- rules: admitted_at set when it may start, else wait (the rule that refused it).
--
-- Why no limit is ever exceeded with any number of nodes: the function takes a transaction-level
-- advisory lock per key (in hash order, so two batches never deadlock) before it counts, and
-- the caller's statement commits the starts (and their rate rows) before the lock is released.
-- VOLATILE: in READ COMMITTED each query below takes a fresh snapshot, after the locks, so it
-- sees every start committed by the previous holder of a key. The calling statement's older
-- snapshot never counts anything. A freed slot (an episode's end) needs no lock: the count only
-- falls, so a stale count is too high, never too low.
CREATE FUNCTION cyclium_admit_limited(p_episode_ids UUID[], p_rules JSONB)
RETURNS TABLE (episode_id UUID, admitted_at TIMESTAMPTZ, conc_keys TEXT[], rate_keys TEXT[],
               wait JSONB)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_keys TEXT[];
  v_rate TEXT[];
  v_periods BIGINT[];
  v_now TIMESTAMPTZ;
  v_used JSONB := '{}'::jsonb;
  v_oldest JSONB := '{}'::jsonb;
  v_rules JSONB;
  v_rule JSONB;
  v_wait JSONB;
  v_key TEXT;
  v_n INT;
  i INT;
BEGIN
  SELECT array_agg(DISTINCT r->>'k') INTO v_keys
    FROM jsonb_array_elements(p_rules) e, jsonb_array_elements(e) r
   WHERE jsonb_typeof(e) = 'array';
  IF v_keys IS NULL THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(h)
     FROM (SELECT DISTINCT hashtextextended('cyclium_limit:' || k, 0) AS h FROM unnest(v_keys) k) x
    ORDER BY h;
  -- Running episodes per concurrency key (the partial GIN index).
  SELECT COALESCE(jsonb_object_agg(k, n), '{}'::jsonb) INTO v_used FROM (
    SELECT k, count(*) AS n
      FROM cyclium_episodes ep CROSS JOIN LATERAL unnest(ep.limit_keys) k
     WHERE ep.status = 'running' AND ep.limit_keys IS NOT NULL AND ep.limit_keys && v_keys
       AND k = ANY(v_keys)
     GROUP BY k) c;
  -- Starts per rate key within its period.
  SELECT array_agg(k), array_agg(p) INTO v_rate, v_periods FROM (
    SELECT DISTINCT r->>'k' AS k, (r->>'p')::bigint AS p
      FROM jsonb_array_elements(p_rules) e, jsonb_array_elements(e) r
     WHERE jsonb_typeof(e) = 'array' AND r->>'c' = 'rate') x;
  IF v_rate IS NOT NULL THEN
    DELETE FROM cyclium_limit_starts s USING unnest(v_rate, v_periods) AS w(k, p)
     WHERE s.limit_key = w.k
       AND s.started_at <= clock_timestamp() - make_interval(secs => w.p / 1000.0);
    SELECT v_used || COALESCE(jsonb_object_agg(k, n), '{}'::jsonb),
           COALESCE(jsonb_object_agg(k, oldest), '{}'::jsonb)
      INTO v_used, v_oldest FROM (
      SELECT s.limit_key AS k, count(*) AS n, min(s.started_at) AS oldest
        FROM cyclium_limit_starts s
       WHERE s.limit_key = ANY(v_rate)
       GROUP BY s.limit_key) c;
  END IF;
  -- The starts' instant, taken after the counts: an end these counts did not see committed after
  -- their snapshot, so it was counted as running; one they saw ended before this instant. So the
  -- episodes' own started_at/finished_at never show more than the limit running at once (a
  -- clock read before the counts did, on a busy server, by a few ms). The rate window counted
  -- from an earlier clock is a little wider: never too few starts.
  v_now := clock_timestamp();
  FOR i IN 1 .. coalesce(array_length(p_episode_ids, 1), 0) LOOP
    v_rules := p_rules -> (i - 1);
    CONTINUE WHEN v_rules IS NULL OR jsonb_typeof(v_rules) <> 'array'
      OR jsonb_array_length(v_rules) = 0;
    v_wait := NULL;
    FOR v_rule IN SELECT * FROM jsonb_array_elements(v_rules) LOOP
      v_key := v_rule->>'k';
      v_n := COALESCE((v_used->>v_key)::int, 0);
      IF v_n >= (v_rule->>'l')::int THEN
        v_wait := v_rule || jsonb_build_object('n', v_n, 'at', v_now);
        IF v_rule->>'c' = 'rate' THEN
          v_wait := v_wait || jsonb_build_object('until',
            COALESCE((v_oldest->>v_key)::timestamptz, v_now)
              + make_interval(secs => (v_rule->>'p')::bigint / 1000.0));
        END IF;
        EXIT;
      END IF;
    END LOOP;
    IF v_wait IS NULL THEN
      FOR v_rule IN SELECT * FROM jsonb_array_elements(v_rules) LOOP
        v_key := v_rule->>'k';
        v_used := jsonb_set(v_used, ARRAY[v_key],
                            to_jsonb(COALESCE((v_used->>v_key)::int, 0) + 1));
        IF v_rule->>'c' = 'rate' AND NOT v_oldest ? v_key THEN
          v_oldest := jsonb_set(v_oldest, ARRAY[v_key], to_jsonb(v_now));
        END IF;
      END LOOP;
      RETURN QUERY SELECT p_episode_ids[i], v_now,
        ARRAY(SELECT r->>'k' FROM jsonb_array_elements(v_rules) r WHERE r->>'c' = 'concurrency'),
        ARRAY(SELECT r->>'k' FROM jsonb_array_elements(v_rules) r WHERE r->>'c' = 'rate'),
        NULL::jsonb;
    ELSE
      RETURN QUERY SELECT p_episode_ids[i], NULL::timestamptz, NULL::text[], NULL::text[], v_wait;
    END IF;
  END LOOP;
END $$;

-- A trigger request whose episode a limit refused keeps the reason (the rule, the count): the
-- pick skips it while that limit is still full (cyclium_limit_full), so pollers neither claim
-- and release it over and over nor let it block the requests behind it (other keys).
ALTER TABLE "cyclium_trigger_requests" ADD COLUMN "limit_wait" JSONB;

-- Whether the limit a refusal names is still full, as far as this snapshot tells (a hint for
-- the pick; the start's gate decides). A rate limit is full until its `until`.
CREATE FUNCTION cyclium_limit_full(p_wait JSONB) RETURNS BOOLEAN
LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN p_wait IS NULL THEN FALSE
    WHEN p_wait->>'c' = 'rate' THEN (p_wait->>'until')::timestamptz > now()
    ELSE (SELECT count(*) FROM cyclium_episodes e
           WHERE e.status = 'running' AND e.limit_keys IS NOT NULL
             AND e.limit_keys @> ARRAY[p_wait->>'k']) >= (p_wait->>'l')::int
  END
$$;
