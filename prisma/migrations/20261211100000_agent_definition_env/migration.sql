-- Issue 29: a dynamic actor belongs to one env (tenant), like every other row a tenant-limited
-- API token touches. Before this, a definition ran in every env, so a token limited to tenant `a`
-- created actors for all tenants. NULL is the unset env (REST tenant `default`/`public`).
ALTER TABLE "cyclium_agent_definitions" ADD COLUMN "env" VARCHAR(255);

-- The identifier is unique per env, an unset env (NULL) counting as one env, like triggers.
DROP INDEX "cyclium_agent_definitions_identifier_key";
CREATE UNIQUE INDEX "cyclium_agent_definitions_identifier_env_key"
  ON "cyclium_agent_definitions"("identifier", "env") NULLS NOT DISTINCT;

-- Existing rows ran in every env. So that no env loses an actor it runs at the upgrade, each row
-- stays in the unset env and is copied into every env a node has registered with; from now on
-- each env's copy is edited, enabled and disabled on its own. cyclium_nodes holds one row per
-- node identity (tens of rows), so this is a small insert.
INSERT INTO "cyclium_agent_definitions"
  ("identifier", "env", "enabled", "max_concurrent_episodes", "expectations", "stacks",
   "inserted_at", "updated_at")
SELECT d."identifier", e."env", d."enabled", d."max_concurrent_episodes", d."expectations",
       d."stacks", d."inserted_at", now()
  FROM "cyclium_agent_definitions" d
  CROSS JOIN (SELECT DISTINCT "env" FROM "cyclium_nodes" WHERE "env" IS NOT NULL) e
 WHERE d."env" IS NULL;
