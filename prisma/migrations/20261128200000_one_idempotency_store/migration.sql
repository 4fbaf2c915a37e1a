-- Pipe creates keep their Idempotency-Key where dashboard creates keep theirs: idempotent_requests.
-- A pipe create's entry names its history entry (record_id), which a replay of an interrupted
-- create points the caller to.

-- AlterTable
ALTER TABLE "idempotent_requests" ADD COLUMN     "record_id" UUID;

-- Keys recorded before fingerprints were kept (fingerprint NULL) are not carried over: a replay
-- could not tell the same request from another one under the same key, so they are released.
INSERT INTO "idempotent_requests" ("tenant_id", "operation", "key", "fingerprint", "outcome", "response",
                                   "created_at", "completed_at", "record_id")
SELECT "tenant_id", 'pipe.create', "idempotency_key", "fingerprint", "outcome"::text, "response",
       "created_at", "completed_at", "id"
FROM "pipe_spec_records"
WHERE "idempotency_key" IS NOT NULL AND "fingerprint" IS NOT NULL
ON CONFLICT DO NOTHING;

-- DropIndex
DROP INDEX "pipe_spec_records_tenant_id_idempotency_key_key";

-- AlterTable
ALTER TABLE "pipe_spec_records" DROP COLUMN "fingerprint",
DROP COLUMN "idempotency_key",
DROP COLUMN "response";
