-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('admin', 'operator', 'viewer', 'auditor');

-- CreateEnum
CREATE TYPE "CredentialKind" AS ENUM ('pipes', 'dashboards');

-- CreateEnum
CREATE TYPE "PipeSpecOutcome" AS ENUM ('pending', 'succeeded', 'failed', 'unknown');

-- CreateTable
CREATE TABLE "tenants" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gateway_keys" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" BYTEA NOT NULL,
    "roles" "Role"[],
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "gateway_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credentials" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "kind" "CredentialKind" NOT NULL,
    "name" TEXT NOT NULL,
    "organization_id" UUID,
    "base_url" TEXT,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "hint" TEXT NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "iv" BYTEA NOT NULL,
    "auth_tag" BYTEA NOT NULL,
    "key_version" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "rejected_at" TIMESTAMPTZ(3),
    "rejected_status" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "credentials_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pipe_spec_records" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "key_id" UUID,
    "actor" TEXT NOT NULL,
    "on_behalf_of" TEXT,
    "organization_id" UUID NOT NULL,
    "service_id" UUID NOT NULL,
    "spec" JSONB NOT NULL,
    "spec_hash" TEXT NOT NULL,
    "outcome" "PipeSpecOutcome" NOT NULL DEFAULT 'pending',
    "pipe_id" TEXT,
    "upstream_request_id" TEXT,
    "upstream_status" INTEGER,
    "error" JSONB,
    "idempotency_key" TEXT,
    "response" JSONB,
    "request_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "pipe_spec_records_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dashboard_versions" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "credential_id" UUID NOT NULL,
    "dashboard_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "content" JSONB NOT NULL,
    "etag" TEXT NOT NULL,
    "tile_count" INTEGER NOT NULL,
    "actor" TEXT NOT NULL,
    "on_behalf_of" TEXT,
    "request_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dashboard_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "tenant_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "actor" TEXT NOT NULL,
    "on_behalf_of" TEXT,
    "action" TEXT NOT NULL,
    "target" TEXT,
    "request_id" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "http_status" INTEGER,
    "details" JSONB,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("tenant_id","seq")
);

-- CreateTable
CREATE TABLE "audit_chains" (
    "tenant_id" UUID NOT NULL,
    "last_seq" INTEGER NOT NULL DEFAULT 0,
    "last_hash" TEXT NOT NULL,
    "start_seq" INTEGER NOT NULL DEFAULT 1,
    "start_hash" TEXT NOT NULL,
    "pruned_at" TIMESTAMPTZ(3),

    CONSTRAINT "audit_chains_pkey" PRIMARY KEY ("tenant_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tenants_name_key" ON "tenants"("name");

-- CreateIndex
CREATE UNIQUE INDEX "gateway_keys_prefix_key" ON "gateway_keys"("prefix");

-- CreateIndex
CREATE INDEX "gateway_keys_tenant_id_created_at_idx" ON "gateway_keys"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "credentials_tenant_id_created_at_idx" ON "credentials"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "credentials_key_version_idx" ON "credentials"("key_version");

-- CreateIndex
CREATE UNIQUE INDEX "credentials_tenant_id_kind_organization_id_key" ON "credentials"("tenant_id", "kind", "organization_id");

-- CreateIndex
CREATE INDEX "pipe_spec_records_tenant_id_created_at_id_idx" ON "pipe_spec_records"("tenant_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "pipe_spec_records_tenant_id_organization_id_service_id_crea_idx" ON "pipe_spec_records"("tenant_id", "organization_id", "service_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "pipe_spec_records_outcome_idx" ON "pipe_spec_records"("outcome");

-- CreateIndex
CREATE UNIQUE INDEX "pipe_spec_records_tenant_id_idempotency_key_key" ON "pipe_spec_records"("tenant_id", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_versions_tenant_id_dashboard_id_version_key" ON "dashboard_versions"("tenant_id", "dashboard_id", "version");

-- CreateIndex
CREATE INDEX "audit_events_tenant_id_at_idx" ON "audit_events"("tenant_id", "at");

-- CreateIndex
CREATE INDEX "audit_events_tenant_id_action_seq_idx" ON "audit_events"("tenant_id", "action", "seq");

-- AddForeignKey
ALTER TABLE "gateway_keys" ADD CONSTRAINT "gateway_keys_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pipe_spec_records" ADD CONSTRAINT "pipe_spec_records_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dashboard_versions" ADD CONSTRAINT "dashboard_versions_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

