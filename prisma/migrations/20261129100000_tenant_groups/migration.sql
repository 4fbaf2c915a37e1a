-- Groups belong to tenants: the platform assigns each identity-provider group to at most one
-- tenant, and only that tenant's mappings of the group give its members roles.

-- CreateTable
CREATE TABLE "tenant_groups" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "group" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenant_groups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tenant_groups_group_key" ON "tenant_groups"("group");

-- CreateIndex
CREATE INDEX "tenant_groups_tenant_id_created_at_idx" ON "tenant_groups"("tenant_id", "created_at");

-- AddForeignKey
ALTER TABLE "tenant_groups" ADD CONSTRAINT "tenant_groups_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Existing mappings keep working: every mapped group is assigned to the tenant that mapped it
-- first (the oldest mapping, then the lowest id). A group several tenants mapped stays mapped in
-- the others, but those mappings give no roles from now on; the gateway warns of them at start.
INSERT INTO "tenant_groups" ("id", "tenant_id", "group", "created_by", "created_at")
SELECT DISTINCT ON ("group") gen_random_uuid(), "tenant_id", "group", 'gateway', "created_at"
FROM "group_mappings"
ORDER BY "group", "created_at", "id";
