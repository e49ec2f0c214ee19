-- The strategy names each node registered (its StrategyRegistry), refreshed by the heartbeat.
-- A dynamic actor (cyclium_agent_definitions) names its expectations' strategies; the console and
-- REST accept only names some live worker registered, read from here (issue 19): before, a typo
-- was stored and every episode of the actor failed with `unknown_strategy`.
ALTER TABLE "cyclium_nodes" ADD COLUMN "strategies" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
