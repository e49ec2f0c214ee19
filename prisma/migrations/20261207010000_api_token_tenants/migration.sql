-- An API token limited to some tenants (envs) (issue 20: Cloacina's `tenant_access_denied`). Empty:
-- the token reaches every env, as every token did before. Otherwise the REST tenant ids it may
-- address, the unset env written `default` (an env literally named so is unreachable by REST).
ALTER TABLE "cyclium_api_tokens" ADD COLUMN "tenants" VARCHAR(255)[] NOT NULL DEFAULT ARRAY[]::VARCHAR(255)[];
