-- The console's search `input.<path>:<value>` (issue 14, docs/console-search.md) is a
-- containment test, `input @> '{"order": "A-1042"}'`: this index finds the few episodes with one
-- order number without reading the env's other episodes (at 1M episodes the time-ordered walk
-- with a filter read every row of the env when the value was rare; the bench has both cases).
-- jsonb_path_ops: smaller than the default opclass and it serves @>, the only operator used.
-- Each episode insert adds one entry per scalar of its input (small; GIN's pending list batches
-- them).
CREATE INDEX "cyclium_episodes_input_idx" ON "cyclium_episodes" USING GIN ("input" jsonb_path_ops);
