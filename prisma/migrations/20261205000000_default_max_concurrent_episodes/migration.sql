-- Cyclium's default concurrency is three episodes of an actor per node (issue 20), for dynamic
-- actors as for compiled ones; rows that stored 4 keep it.
ALTER TABLE "cyclium_agent_definitions" ALTER COLUMN "max_concurrent_episodes" SET DEFAULT 3;
