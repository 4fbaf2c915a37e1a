-- AlterTable
ALTER TABLE "pipe_spec_records" ADD COLUMN     "deleted_at" TIMESTAMPTZ(3),
ADD COLUMN     "fingerprint" TEXT;

-- CreateTable
CREATE TABLE "idempotent_requests" (
    "tenant_id" UUID NOT NULL,
    "operation" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "outcome" TEXT NOT NULL DEFAULT 'pending',
    "response" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "idempotent_requests_pkey" PRIMARY KEY ("tenant_id","operation","key")
);

-- AddForeignKey
ALTER TABLE "idempotent_requests" ADD CONSTRAINT "idempotent_requests_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

