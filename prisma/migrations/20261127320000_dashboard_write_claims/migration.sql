-- Writes of one dashboard (replace, restore, delete) are serialised across gateway processes by a
-- claim on the dashboard's row here, taken in the statement of the write's pending audit event and
-- given back in its outcome's: no database lock or session is held while the upstream is called.

-- CreateTable
CREATE TABLE "dashboard_write_heads" (
    "tenant_id" UUID NOT NULL,
    "dashboard_id" TEXT NOT NULL,
    "generation" INTEGER NOT NULL,
    "writer" TEXT,
    "writing_until" TIMESTAMPTZ(3),

    CONSTRAINT "dashboard_write_heads_pkey" PRIMARY KEY ("tenant_id","dashboard_id")
);

-- AddForeignKey
ALTER TABLE "dashboard_write_heads" ADD CONSTRAINT "dashboard_write_heads_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A claim that cannot be taken fails its whole statement, so the pending event, and the version
-- written with it, are not written either. SQLSTATE GW409 tells the gateway to read and try again.
CREATE FUNCTION dashboard_write_claimable(claimable BOOLEAN) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
BEGIN
    IF claimable IS NOT TRUE THEN
        RAISE EXCEPTION 'the dashboard was written, or is being written, since its claim was read'
            USING ERRCODE = 'GW409';
    END IF;
    RETURN TRUE;
END
$$;
