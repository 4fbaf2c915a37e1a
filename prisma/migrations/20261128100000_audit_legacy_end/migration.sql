-- Where a tenant's events chained with plain SHA-256 (before keyed chaining) end: the last such
-- event's seq and hash, signed with a chain key when the gateway first recorded it. Verification
-- accepts unkeyed events only up to a genuine one; a chain without one may have none.
ALTER TABLE "audit_chains" ADD COLUMN "legacy_end_seq" INTEGER,
ADD COLUMN "legacy_end_hash" TEXT,
ADD COLUMN "legacy_end_key_version" TEXT,
ADD COLUMN "legacy_end_signature" TEXT;
