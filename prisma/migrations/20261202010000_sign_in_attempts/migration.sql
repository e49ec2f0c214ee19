-- Failed sign-ins, per (account, client address), shared by every console process (issue 13).
-- Replaces an in-memory limiter that each process kept on its own and that also counted per
-- account alone: twenty wrong passwords from anywhere locked the account's owner out for an hour.
-- Keyed by address, an attacker elsewhere only slows themselves down; `blocked_until` grows
-- exponentially with `failures` (apps/web/src/server/auth/sign-in-throttle.ts). `account` is the
-- normalised email as typed, known or not (no account probing), `address` the client address or
-- '-' when unknown.
CREATE TABLE "cyclium_sign_in_attempts" (
    "account" VARCHAR(255) NOT NULL,
    "address" VARCHAR(64) NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "last_failure_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
    "blocked_until" TIMESTAMPTZ(6),

    CONSTRAINT "cyclium_sign_in_attempts_pkey" PRIMARY KEY ("account", "address")
);

-- Password spraying: the failures of one address across accounts, over the last hour.
CREATE INDEX "cyclium_sign_in_attempts_address_idx"
    ON "cyclium_sign_in_attempts"("address", "last_failure_at");
