-- The audit chain key version each event is chained with (AUDIT_CHAIN_KEYS); NULL marks the events
-- chained with plain SHA-256 before keyed chaining, which verification reports as legacy.
ALTER TABLE "audit_events" ADD COLUMN "chain_key" TEXT;

-- Per key version (master keys and audit chain keys), a value only that key produces: every start
-- proves each configured key against it.
CREATE TABLE "key_checks" (
    "purpose" TEXT NOT NULL,
    "key_version" TEXT NOT NULL,
    "check_value" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "key_checks_pkey" PRIMARY KEY ("purpose","key_version")
);
