-- A pipe's name, as the audit log, vault usage and the console show it, comes from the newest
-- create of that pipe: found through its id rather than by reading the tenant's whole history.
CREATE INDEX "pipe_spec_records_tenant_id_pipe_id_created_at_idx" ON "pipe_spec_records"("tenant_id", "pipe_id", "created_at" DESC);
