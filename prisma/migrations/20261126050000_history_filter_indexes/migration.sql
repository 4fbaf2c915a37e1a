-- DropIndex
DROP INDEX "pipe_spec_records_tenant_id_organization_id_service_id_crea_idx";

-- CreateIndex
CREATE INDEX "pipe_spec_records_tenant_id_organization_id_created_at_id_idx" ON "pipe_spec_records"("tenant_id", "organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "pipe_spec_records_tenant_id_outcome_created_at_id_idx" ON "pipe_spec_records"("tenant_id", "outcome", "created_at" DESC, "id" DESC);

