-- CreateIndex
CREATE INDEX "audit_events_tenant_id_actor_seq_idx" ON "audit_events"("tenant_id", "actor", "seq");

-- CreateIndex
CREATE INDEX "audit_events_tenant_id_target_seq_idx" ON "audit_events"("tenant_id", "target", "seq");

-- CreateIndex
CREATE INDEX "audit_events_tenant_id_outcome_seq_idx" ON "audit_events"("tenant_id", "outcome", "seq");

