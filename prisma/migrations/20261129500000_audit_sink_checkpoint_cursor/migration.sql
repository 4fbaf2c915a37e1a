-- Per sink, the id of the last signed checkpoint (audit_checkpoints) it has delivered: checkpoints
-- go out in the order they were signed, each once the events it covers have been delivered.
ALTER TABLE "audit_sinks" ADD COLUMN "delivered_checkpoint_id" BIGINT NOT NULL DEFAULT 0;
