-- Destinations the audit log is also delivered to (syslog, webhook): the replica that ships each
-- one holds a lease it renews, and every replica sees how the last delivery went.
CREATE TABLE "audit_sinks" (
    "sink" TEXT NOT NULL,
    "lease_holder" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "last_delivery_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "last_error_at" TIMESTAMPTZ(3),

    CONSTRAINT "audit_sinks_pkey" PRIMARY KEY ("sink")
);

-- Per sink and tenant, the seq through which the tenant's chain has been delivered. It only moves
-- after a delivery succeeded, so a shipper that dies mid-batch leaves it where the batch began.
CREATE TABLE "audit_sink_cursors" (
    "sink" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "delivered_seq" INTEGER NOT NULL,

    CONSTRAINT "audit_sink_cursors_pkey" PRIMARY KEY ("sink","tenant_id")
);

ALTER TABLE "audit_sink_cursors" ADD CONSTRAINT "audit_sink_cursors_sink_fkey" FOREIGN KEY ("sink") REFERENCES "audit_sinks"("sink") ON DELETE CASCADE ON UPDATE CASCADE;
