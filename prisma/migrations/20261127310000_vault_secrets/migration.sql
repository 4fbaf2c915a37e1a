-- AlterEnum
ALTER TYPE "CredentialKind" ADD VALUE 'secret';

-- AlterTable
ALTER TABLE "credentials" ADD COLUMN     "fields" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "secret_name" TEXT;

-- AlterTable
ALTER TABLE "pipe_spec_records" ADD COLUMN     "resubmitted_from" UUID;

-- CreateTable
CREATE TABLE "secret_uses" (
    "tenant_id" UUID NOT NULL,
    "credential_id" UUID NOT NULL,
    "pipe_id" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "service_id" UUID NOT NULL,
    "path" TEXT NOT NULL,
    "history_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "secret_uses_pkey" PRIMARY KEY ("credential_id","pipe_id","path")
);

-- CreateIndex
CREATE INDEX "secret_uses_tenant_id_pipe_id_idx" ON "secret_uses"("tenant_id", "pipe_id");

-- CreateIndex
CREATE UNIQUE INDEX "credentials_tenant_id_secret_name_key" ON "credentials"("tenant_id", "secret_name");

-- AddForeignKey
ALTER TABLE "secret_uses" ADD CONSTRAINT "secret_uses_credential_id_fkey" FOREIGN KEY ("credential_id") REFERENCES "credentials"("id") ON DELETE CASCADE ON UPDATE CASCADE;

