-- The public chain: each event's digest is SHA-256 over its canonical form and the digest of the
-- event before, so anyone can recompute it. Existing events get theirs at the gateway's next
-- start (src/audit/digest-backfill.ts): the canonical form is rendered in JavaScript.
ALTER TABLE "audit_events" ADD COLUMN "prev_digest" TEXT,
ADD COLUMN "digest" TEXT;

-- Checkpoints of the public chain signed with AUDIT_SIGNING_KEYS (JWS, EdDSA), kept in the order
-- they were signed.
CREATE TABLE "audit_checkpoints" (
    "id" BIGSERIAL NOT NULL,
    "tenant_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "digest" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "kid" TEXT NOT NULL,
    "jws" TEXT NOT NULL,

    CONSTRAINT "audit_checkpoints_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "audit_checkpoints_tenant_id_seq_idx" ON "audit_checkpoints"("tenant_id", "seq");

ALTER TABLE "audit_checkpoints" ADD CONSTRAINT "audit_checkpoints_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
