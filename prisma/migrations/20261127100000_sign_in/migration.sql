-- Sign-in: group mappings (groups of signed-in users become roles in a tenant), and keys that may not
-- act for people (X-On-Behalf-Of). Existing keys keep the right they had.

-- AlterTable
ALTER TABLE "gateway_keys" ADD COLUMN     "delegate" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "group_mappings" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "group" TEXT NOT NULL,
    "roles" "Role"[],
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "group_mappings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "group_mappings_group_idx" ON "group_mappings"("group");

-- CreateIndex
CREATE INDEX "group_mappings_tenant_id_created_at_idx" ON "group_mappings"("tenant_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "group_mappings_tenant_id_group_key" ON "group_mappings"("tenant_id", "group");

-- AddForeignKey
ALTER TABLE "group_mappings" ADD CONSTRAINT "group_mappings_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

