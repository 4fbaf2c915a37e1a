// Generated from the pipes-gateway OpenAPI document by `npm run client:generate`; do not edit.
export interface paths {
  '/v1/audit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Review the tenant's audit log
     * @description Every state-changing call and every credential use, newest first, in keyset pages; the filters narrow it. Secrets were replaced by "[redacted]" before an event was written. `names` gives the names the gateway knows for the actors and targets of the page.
     */
    get: operations['AuditController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/audit/actions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The audit action catalogue
     * @description Every action the gateway appends, with its meaning and the kind of target its events name: the choices for the list's and the export's `action` filter. The same for every tenant; an auditor's, like the log.
     */
    get: operations['AuditController_actions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/audit/actors': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The actors of the audit log
     * @description Each actor that appears in the log once, with its name (a key by its name, a person by the address), in keyset pages: the choices for the list's `actor` filter.
     */
    get: operations['AuditController_actors'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/audit/targets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The targets of the audit log
     * @description Each target that appears in the log once (of one kind with `kind`), with the name the gateway knows for it, in keyset pages: the choices for the list's `target` filter. No upstream is asked.
     */
    get: operations['AuditController_targets'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/audit/export': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Export the tenant's audit log
     * @description Newline-delimited JSON, one event per line, oldest first, streamed; the same filters as the list. The last line is `{"checkpoint": "<JWS>"}`: a checkpoint signed with AUDIT_SIGNING_KEYS over the last event, so tools/verify-audit-log.mjs verifies the file offline with the keys of GET /v1/audit/signing-keys.
     */
    get: operations['AuditController_export'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/audit/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Verify the audit chain
     * @description Recomputes every event of the chain from its start (HMAC under the chain key each event names; plain SHA-256 for legacy events) and checks every link up to the recorded head. A database writer without the chain key cannot make an edited event pass; to find the newest events cut off, verify against a kept checkpoint (POST). `from=checkpoint` verifies only what was appended since the tenant's newest signed checkpoint: `checkpoint` in the answer names it.
     */
    get: operations['AuditController_verify'];
    put?: never;
    /**
     * Verify the audit chain against a kept checkpoint
     * @description The same verification, and the chain must still pass through the checkpoint: an event there that is not the one it signed is `checkpoint mismatch`, a chain that ends before it is `truncated`. Changes nothing.
     */
    post: operations['AuditController_verifyAgainstCheckpoint'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/audit/checkpoint': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A signed checkpoint of the audit chain head
     * @description Keep it outside the gateway (and its database), then give it back to POST /v1/audit/verify: the chain must still reach it. `jws` signs the head's public digest with AUDIT_SIGNING_KEYS: anyone can check it with GET /v1/audit/signing-keys. The checkpoint is also written to the log and kept for the audit sinks; the gateway makes one for each tenant whose head moved every AUDIT_CHECKPOINT_INTERVAL.
     */
    get: operations['AuditController_checkpoint'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/audit/reviews': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign off the audit log as reviewed
     * @description Appends an `audit.review` event naming the range reviewed (from the event after the previous review, or the first, through `throughSeq`), the public digest of the event at `throughSeq`, the reviewer (the event's actor) and the note. Ranges never overlap: one review at a time per tenant.
     */
    post: operations['AuditReviewsController_record'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/audit/reviews/latest': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Where review of the audit log stands
     * @description The latest review (through which event, by whom, when, with what note), the newest event, and how many events came after the reviewed range: what is new since the last sign-off.
     */
    get: operations['AuditReviewsController_latest'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/audit/signing-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The public keys of signed audit checkpoints
     * @description A JWKS (RFC 7517, Ed25519 keys as RFC 8037 writes them) of every AUDIT_SIGNING_KEYS key, the signing one first: what tools/verify-audit-log.mjs takes with --keys. No credential: the keys are public.
     */
    get: operations['AuditSigningKeysController_signingKeys'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/admin/audit-sinks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Where the audit log is delivered, and how far behind
     * @description Each configured sink (AUDIT_SYSLOG_URL, AUDIT_WEBHOOK_URL): its address without credentials, the events and seconds it is behind, its last delivery and its last error.
     */
    get: operations['AuditSinksController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/audit/sinks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Whether the audit log reaches its sinks
     * @description Each configured sink (syslog, webhook): how late it is, its last delivery and its last failure, and whether it fails now. Not where it delivers or why it failed: GET /v1/admin/audit-sinks, for the platform.
     */
    get: operations['AuditSinkStatesController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the tenant's gateway keys
     * @description Metadata only (never a key), revoked keys included, oldest first, in keyset pages.
     */
    get: operations['KeysController_list'];
    put?: never;
    /**
     * Issue a gateway key
     * @description A key of this tenant with the roles given. The key itself is in the answer this once; only its hash is kept.
     */
    post: operations['KeysController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/keys/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke a gateway key
     * @description Calls with the key are refused (401) from now on, on every replica. The key stays listed.
     */
    delete: operations['KeysController_revoke'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/admin/tenants': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the tenants
     * @description Oldest first, in keyset pages; `name` finds a tenant by its exact name.
     */
    get: operations['TenantsController_list'];
    put?: never;
    /**
     * Create a tenant
     * @description A team: every credential, key, history record and audit event belongs to one tenant.
     */
    post: operations['TenantsController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/admin/tenants/{tenantId}/keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Issue a tenant's gateway key
     * @description Usually the tenant's first admin key. The key itself is in the answer this once; only its hash is kept.
     */
    post: operations['TenantsController_issueKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/admin/tenants/{tenantId}/groups': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the groups assigned to a tenant
     * @description Oldest first, keyset pages.
     */
    get: operations['TenantsController_listGroups'];
    put?: never;
    /**
     * Assign an identity provider's group to a tenant
     * @description Only the tenant's mappings of the group give its members roles, and only this tenant's admins may map it. A group belongs to one tenant at most. Audited in the tenant's log as `group.assign`.
     */
    post: operations['TenantsController_assignGroup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/admin/tenants/{tenantId}/groups/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Unassign a group from a tenant
     * @description The tenant's mapping of the group is deleted with it: its members lose those roles, within 2 seconds on every replica. Audited as `group.unassign` (and `group-mapping.delete`).
     */
    delete: operations['TenantsController_unassignGroup'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/admin/tenants/{tenantId}/group-mappings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the tenant's group mappings
     * @description Oldest first, keyset pages.
     */
    get: operations['TenantsController_listGroupMappings'];
    put?: never;
    /**
     * Map a group to roles in the tenant
     * @description Signed-in users whose token lists the group get these roles in the tenant (the union over all their groups), while the group is assigned to the tenant. Audited in the tenant's log as `group-mapping.create`. The platform's mapping of a group assigned to no tenant assigns it to this one (`group.assign`).
     */
    post: operations['TenantsController_createGroupMapping'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/admin/tenants/{tenantId}/group-mappings/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete a group mapping
     * @description The group's members lose its roles in the tenant, within 2 seconds on every replica. Audited as `group-mapping.delete`.
     */
    delete: operations['TenantsController_removeGroupMapping'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Who am I
     * @description The caller as the gateway sees it: its kind, the actor name the audit log records, and each tenant it may act in with its roles and the operations it may call there. Any valid credential may ask, a user token whatever its groups give. Answers an ETag; send it back in If-None-Match to get 304 while nothing changed.
     */
    get: operations['MeController_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credentials': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the tenant's credentials
     * @description Metadata only, oldest first, in keyset pages (`cursor`, `limit`).
     */
    get: operations['CredentialsController_list'];
    put?: never;
    /**
     * Store an upstream credential
     * @description `kind: "pipes"` holds a pipes API key (`organizationId`, `keyId`, `keySecret`), one per organization; `kind: "dashboards"` a dashboards API `token`, optionally for a self-hosted `baseUrl` on an allowed host. The secret is encrypted at rest and never returned; the answer is its metadata.
     */
    post: operations['CredentialsController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credentials/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a credential
     * @description Metadata only: kind, name, the last 4 characters of the key id or token, version, use and refusal.
     */
    get: operations['CredentialsController_get'];
    put?: never;
    post?: never;
    /**
     * Delete a credential
     * @description The secret is gone at once; pipes or dashboards calls that need it then answer 422. A vault secret that pipes use (GET /v1/credentials/{id}/usage) is kept, with a 409 naming them, unless ?force=true confirms it: those pipes keep its value upstream, but updating or creating one that references it then fails. The `credential.delete` event names the pipes (`usedBy`).
     */
    delete: operations['CredentialsController_remove'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credentials/{id}/rotate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replace a credential's secret
     * @description A pipes credential takes a new `keySecret` (and optionally `keyId`), a dashboards credential a new `token`, a vault secret a new `value`. Its version goes up by 1 and a refusal mark is cleared. For a vault secret, ?propagate=true then updates each pipe that uses it upstream (audited one by one) and reports each outcome; a failure on one stops none of the others and keeps the new value.
     */
    post: operations['CredentialsController_rotate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/credentials/{id}/usage': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Where a vault secret is used
     * @description The pipes created or updated through the gateway with specs that reference the secret, and where in each spec.
     */
    get: operations['SecretUsageController_usage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/organizations/{organizationId}/services/{serviceId}/pipes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a service's pipes
     * @description `{status, requestId, result}` from the pipes API, secrets removed. `result` is the list. Served from the tenant's read cache for up to PIPE_READ_CACHE_MS (2 s by default); `Age` says how old it is.
     */
    get: operations['PipesController_list'];
    put?: never;
    /**
     * Create a pipe
     * @description The body is the pipes service's own create body (every source kind, credential form and setting it takes), checked against its published types, value sets and ranges and forwarded exactly as sent. The upstream envelope is returned as sent, secrets removed. Where the service takes a secret (a credential object, an access key, a password, secret or private key, a connection string, a service-account key), `{"$secret": "<name or id>"}` may stand for a vault secret of the tenant: its value is put in for the upstream call only. The body schema types each such place as the value or a `SecretReference`.
     */
    post: operations['PipesController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a pipe
     * @description `{status, requestId, result}` from the pipes API, secrets removed. `result` is the pipe. Served from the tenant's read cache for up to PIPE_READ_CACHE_MS (2 s by default); `Age` says how old it is.
     */
    get: operations['PipesController_get'];
    put?: never;
    post?: never;
    /**
     * Delete a pipe
     * @description A pipe created through the gateway keeps its create spec in the history, marked deleted. Answers the envelope the service sends, without a result.
     */
    delete: operations['PipesController_delete'];
    options?: never;
    head?: never;
    /**
     * Update a pipe
     * @description Only the fields of the service's update body are accepted; `null` clears a field. Forwarded exactly as sent. Where the service takes a secret (a credential object, an access key, a password, secret or private key, a connection string, a service-account key), `{"$secret": "<name or id>"}` may stand for a vault secret of the tenant: its value is put in for the upstream call only. The body schema types each such place as the value or a `SecretReference`.
     */
    patch: operations['PipesController_update'];
    trace?: never;
  };
  '/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/state': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Start, stop or resync a pipe
     * @description resync is for database (CDC) pipes. Answers the pipe in its new state.
     */
    patch: operations['PipesController_changeState'];
    trace?: never;
  };
  '/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/scaling': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Scale a pipe
     * @description Replicas 1-40, CPU 125-2000 millicores, memory 0.5-8 GB per replica; null resets a value. Answers the pipe.
     */
    patch: operations['PipesController_scale'];
    trace?: never;
  };
  '/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a pipe's advanced settings
     * @description `{status, requestId, result}` from the pipes API, secrets removed. `result` is the settings object, as the service names the settings. Served from the tenant's read cache for up to PIPE_READ_CACHE_MS (2 s by default); `Age` says how old it is.
     */
    get: operations['PipesController_settings'];
    /**
     * Replace a pipe's advanced settings
     * @description The settings object replaces the old one whole; `clickhouse_*` and `engine_*` names are both taken.
     */
    put: operations['PipesController_replaceSettings'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/history/pipe-specs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List submitted pipe create specs
     * @description Every pipe create that passed validation, recorded before the upstream call and completed after it, secrets replaced by "[redacted]"; newest first, in keyset pages, narrowed by the filters.
     */
    get: operations['PipeSpecHistoryController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/history/pipe-specs/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a submitted pipe create spec
     * @description The spec as submitted (secrets redacted), who sent it, and the outcome upstream.
     */
    get: operations['PipeSpecHistoryController_get'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/history/pipe-specs/{id}/resubmit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create the pipe of a recorded spec again
     * @description Submits the recorded create spec again, with today's values of the vault secrets it references, as a new history entry linked to this one. A spec that held inline secrets answers 409 listing them: the history kept none of their values.
     */
    post: operations['PipeSpecHistoryController_resubmit'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/organizations/{organizationId}/services/{serviceId}/pipes/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Follow a service's pipes as they change
     * @description Server-Sent Events, one per change: `pipe.created`, `pipe.updated`, `pipe.deleted`, `pipe.state`, `pipe.scaling`, each with an `id` and `data` `{pipeId, pipe?, source}` (`pipe` is the pipe as it is now, secrets removed, absent for a deletion; `source` is `gateway` for a write made through the gateway, `upstream` for a change found by polling the pipes API). Comment lines (`:`) keep an idle stream open. `stream.reset` says events since `Last-Event-ID` are no longer kept (read the list again); `stream.end` `{reason}` is the last event when the key is revoked, the token expires, the role is withdrawn or the gateway stops. A reader too slow to keep up is disconnected: reconnect with `Last-Event-ID`. Changes made elsewhere arrive within PIPE_EVENTS_POLL_MS; the gateway's own writes at once. Send the key or token in Authorization (a fetch-based reader: EventSource cannot set headers).
     */
    get: operations['PipeEventsController_follow'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/dashboards': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List dashboards
     * @description `{data: [...]}` as the dashboards API sent it, with an ETag. Send the ETag back in If-None-Match to get 304, without a body, while it is unchanged.
     */
    get: operations['DashboardsController_list'];
    put?: never;
    /**
     * Create a dashboard
     * @description The gateway checks what it owns (tile ids, layout, sizes) and passes every other field through, so a dashboard read here can be written back as it came. The new dashboard's content is kept as its version 1.
     */
    post: operations['DashboardsController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/dashboards/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a dashboard
     * @description `{data}` as the dashboards API sent it, with an ETag to send back in If-Match. Send the ETag back in If-None-Match to get 304, without a body, while it is unchanged.
     */
    get: operations['DashboardsController_get'];
    /**
     * Replace a dashboard
     * @description The gateway checks what it owns (tile ids, layout, sizes) and passes every other field through, so a dashboard read here can be written back as it came. Tiles left out are deleted upstream; dashboard fields left out keep their values. The content it had is stored as a new version. With If-Match, a dashboard changed since it was read is not written (412).
     */
    put: operations['DashboardsController_replace'];
    post?: never;
    /**
     * Delete a dashboard
     * @description Its content is kept first as the newest stored version: the versions stay listed, and restoring one creates the dashboard again.
     */
    delete: operations['DashboardsController_delete'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/dashboards/{id}/versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a dashboard's stored versions
     * @description The content a dashboard had before each replace, restore or delete through the gateway, newest first: who replaced it, when, its tile count and ETag. Read from the gateway alone; empty for a dashboard never changed here. Open to auditors as well as viewers.
     */
    get: operations['DashboardsController_versions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/dashboards/{id}/versions/{n}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a stored version of a dashboard
     * @description The whole content the dashboard had, as the dashboards API returned it, with who replaced it. Open to auditors as well as viewers, so a change in the audit log can be compared with what it replaced.
     */
    get: operations['DashboardsController_version'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/dashboards/{id}/versions/{n}/restore': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Put a stored version back
     * @description Itself a replace: the current content becomes a new version. A dashboard the service no longer has (deleted) is created again from the version: the answer carries its new id, and the versions move to it.
     */
    post: operations['DashboardsController_restore'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health/live': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Liveness probe
     * @description Answers while the process runs; asks nothing of the database. No authentication.
     */
    get: operations['HealthController_live'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health/ready': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness probe
     * @description Ready when every migration was applied at start and the database answers now, until the process is told to stop (SIGTERM): from then on 503 while it drains (SHUTDOWN_DRAIN_MS), so that balancers send requests elsewhere before it closes. No authentication.
     */
    get: operations['HealthController_ready'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Prometheus metrics
     * @description Request counts and durations by route and status, upstream calls, circuits, pools. No authentication: keep it on an internal network. In the OpenMetrics text format when `Accept` prefers it (Prometheus asks so), with the latency buckets naming a trace each (exemplars) while the gateway exports traces; in the Prometheus text format otherwise.
     */
    get: operations['MetricsController_render'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/group-mappings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the tenant's group mappings
     * @description Oldest first, keyset pages.
     */
    get: operations['GroupMappingsController_list'];
    put?: never;
    /**
     * Map a group to roles in the tenant
     * @description Signed-in users whose token lists the group get these roles in the tenant (the union over all their groups), while the group is assigned to the tenant. Audited in the tenant's log as `group-mapping.create`. Only a group the platform assigned to the tenant can be mapped.
     */
    post: operations['GroupMappingsController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/group-mappings/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete a group mapping
     * @description The group's members lose its roles in the tenant, within 2 seconds on every replica. Audited as `group-mapping.delete`.
     */
    delete: operations['GroupMappingsController_remove'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    AuditEventView: {
      /** @description Position in the tenant's chain: 1, 2, 3, ... with no gaps. */
      seq: number;
      /** Format: date-time */
      at: string;
      /** Format: uuid */
      tenantId: string;
      /**
       * @description Who acted: `key:<id>`, `user:<email>` (a verified address), `user-sub:<sub>`, `platform`, `cli`, `sandbox` or `gateway` (the gateway's own jobs: retention, use records).
       * @example key:3f1e2d4c-0000-4000-8000-000000000000
       */
      actor: string;
      /** @description X-On-Behalf-Of of the request. */
      onBehalfOf?: string | null;
      /**
       * @example credential.rotate
       * @enum {string}
       */
      action:
        | 'tenant.create'
        | 'key.create'
        | 'key.revoke'
        | 'group.assign'
        | 'group.unassign'
        | 'group-mapping.create'
        | 'group-mapping.delete'
        | 'credential.create'
        | 'credential.rotate'
        | 'credential.delete'
        | 'credential.use'
        | 'credential.rejected'
        | 'vault.value-echo'
        | 'pipe.create'
        | 'pipe.update'
        | 'pipe.delete'
        | 'pipe.state'
        | 'pipe.scale'
        | 'pipe.settings'
        | 'dashboard.create'
        | 'dashboard.replace'
        | 'dashboard.delete'
        | 'dashboard.restore'
        | 'audit.prune'
        | 'audit.review';
      /** @example credential:3f1e2d4c-... */
      target?: string | null;
      requestId: string;
      /** @enum {string} */
      outcome: 'succeeded' | 'failed' | 'denied' | 'pending';
      httpStatus?: number | null;
      /** @description As recorded; secrets were replaced by "[redacted]" before the event was written. */
      details?: {
        [key: string]: unknown;
      } | null;
      /** @description Hash of the previous event (64 zeros for the first). */
      prevHash: string;
      /** @description HMAC-SHA-256 over this event's canonical JSON, prevHash included, under the chain key `chainKey`; plain SHA-256 for a legacy event. */
      hash: string;
      /**
       * @description The AUDIT_CHAIN_KEYS version the event was chained with; null for a legacy event.
       * @example v1
       */
      chainKey?: string | null;
      /** @description The public chain: the digest of the event before (64 zeros for the first). Null only for an event written during an upgrade, until the next start computes it. */
      prevDigest?: string | null;
      /** @description SHA-256 (hex) over this event's canonical form with prevDigest in place of prevHash, chainKey and hash (docs/security.md): anyone can recompute it, and checkpoints signed with AUDIT_SIGNING_KEYS vouch for it. */
      digest?: string | null;
    };
    AuditEventListView: {
      /** @description Newest first (descending seq). */
      items: components['schemas']['AuditEventView'][];
      nextCursor: string | null;
      /**
       * @description Names for the actors and targets named, keyed as they are written (`key:<id>`, `pipe:<id>`, ...): a key's name, a person's verified address, a credential's, pipe's or dashboard's name, a group's, from the gateway's own records (a pipe or dashboard as last created or renamed through the gateway; a deleted credential by the name its events recorded). One the gateway does not know is left out: show it as written.
       * @example {
       *       "key:3f1e2d4c-0000-4000-8000-000000000000": "ci deploy",
       *       "pipe:p-42": "orders to warehouse"
       *     }
       */
      names: {
        [key: string]: string;
      };
      /**
       * @description With an `actor` filter: the actors it matched. One in an actor form is itself; other text matches the person with that address or subject and the keys of that name (in any case), or the key of that id.
       * @example [
       *       "user:dana@example.com",
       *       "user-sub:dana@example.com"
       *     ]
       */
      actorsLookedFor?: string[];
    };
    AuditActionView: {
      /**
       * @example credential.rotate
       * @enum {string}
       */
      action:
        | 'tenant.create'
        | 'key.create'
        | 'key.revoke'
        | 'group.assign'
        | 'group.unassign'
        | 'group-mapping.create'
        | 'group-mapping.delete'
        | 'credential.create'
        | 'credential.rotate'
        | 'credential.delete'
        | 'credential.use'
        | 'credential.rejected'
        | 'vault.value-echo'
        | 'pipe.create'
        | 'pipe.update'
        | 'pipe.delete'
        | 'pipe.state'
        | 'pipe.scale'
        | 'pipe.settings'
        | 'dashboard.create'
        | 'dashboard.replace'
        | 'dashboard.delete'
        | 'dashboard.restore'
        | 'audit.prune'
        | 'audit.review';
      /** @example A credential's value was replaced by a new version. */
      meaning: string;
      /**
       * @description The kind of target the action's events name, as `<kind>:<id>`; null when they name none.
       * @enum {string|null}
       */
      target:
        | 'tenant'
        | 'key'
        | 'group'
        | 'group-mapping'
        | 'credential'
        | 'pipe-spec'
        | 'pipe'
        | 'dashboard'
        | null;
      /** @description Its effect happens upstream: a `pending` event before the call, then the outcome (`succeeded` or `failed`) with the same requestId. */
      upstream: boolean;
    };
    AuditActionListView: {
      /** @description Every action the gateway appends, grouped by subject. */
      items: components['schemas']['AuditActionView'][];
    };
    AuditActorView: {
      /**
       * @description As events write it.
       * @example key:3f1e2d4c-0000-4000-8000-000000000000
       */
      actor: string;
      /**
       * @description A key's name or a person's verified address; null when the gateway knows none.
       * @example ci deploy
       */
      name: string | null;
    };
    AuditActorListView: {
      /** @description Each actor of the log once, in text order. */
      items: components['schemas']['AuditActorView'][];
      nextCursor: string | null;
    };
    AuditTargetView: {
      /**
       * @description As events write it.
       * @example pipe:p-42
       */
      target: string;
      /**
       * @description Its name in the gateway's own records (as in the list's `names`); null when none is known.
       * @example orders to warehouse
       */
      name: string | null;
    };
    AuditTargetListView: {
      /** @description Each target of the log once, in text order. */
      items: components['schemas']['AuditTargetView'][];
      nextCursor: string | null;
    };
    CheckpointOutcomeView: {
      /** @description The seq of the checkpoint given. */
      seq: number;
      /**
       * @description `reached`: the chain still passes through the checkpoint. `pruned`: retention removed the events up to it, so it can no longer be compared.
       * @enum {string}
       */
      status: 'reached' | 'pruned';
    };
    ChainVerificationView: {
      ok: boolean;
      /** @description Events that passed every check. */
      checked: number;
      /** @description ok only: the chain head. */
      lastSeq?: number;
      /** @description ok only: hash of the chain head. */
      lastHash?: string;
      /** @description ok only: how many of the checked events were chained with plain SHA-256, before the chain was keyed: only up to the tenant's legacy end, which the gateway signed when it first recorded it. */
      legacyEvents?: number;
      /** @description ok only, when a checkpoint was given, or verification started after one (`from=checkpoint`). */
      checkpoint?: components['schemas']['CheckpointOutcomeView'];
      /** @description not ok: the first seq that is altered, missing or out of place. */
      firstBadSeq?: number;
      /**
       * @description `hash mismatch`: the event was edited (or names a chain key this gateway does not have). `missing event`: a seq is absent (deleted). `prevHash mismatch`: events were reordered or one was inserted. `unkeyed event`: an event without a chain key past the legacy end the gateway signed for the tenant, or in a chain with none (written without the key). `head mismatch`: the newest events were deleted, or the recorded head disagrees with the last event. `undeclared start`: the chain starts later than retention pruning recorded (a prefix was deleted). `checkpoint mismatch`: the event at a signed point (the checkpoint given, or the legacy end) is not the one signed (rewritten, or removed and replaced). `truncated`: the chain ends before a signed point: events it covered are gone. `digest mismatch`: the public chain is broken there: the event's `digest` is not SHA-256 of its canonical form with `prevDigest`, or `prevDigest` is not the digest of the event before (or either is missing).
       * @enum {string}
       */
      reason?:
        | 'missing event'
        | 'prevHash mismatch'
        | 'hash mismatch'
        | 'unkeyed event'
        | 'head mismatch'
        | 'undeclared start'
        | 'checkpoint mismatch'
        | 'truncated'
        | 'digest mismatch';
    };
    AuditCheckpointDto: {
      /** Format: uuid */
      tenantId: string;
      seq: number;
      hash: string;
      /** Format: date-time */
      at: string;
      /** @example v2 */
      keyVersion: string;
      signature: string;
      /** @description Ignored. */
      digest?: string | null;
      /** @description Ignored. */
      jws?: string | null;
    };
    VerifyAgainstCheckpointDto: {
      /** @description As GET /v1/audit/checkpoint answered it. */
      checkpoint: components['schemas']['AuditCheckpointDto'];
    };
    AuditCheckpointView: {
      /** Format: uuid */
      tenantId: string;
      /** @description The chain head: the seq of the newest event (0 for an empty chain). */
      seq: number;
      /** @description Hash of that event. */
      hash: string;
      /**
       * Format: date-time
       * @description When the checkpoint was made.
       */
      at: string;
      /**
       * @description The AUDIT_CHAIN_KEYS version that signed it.
       * @example v2
       */
      keyVersion: string;
      /** @description HMAC-SHA-256 (hex) over the fields above; only this gateway, holding the key, can make or check it. */
      signature: string;
      /** @description The head event's public digest; null only while an upgrade's start has not computed it yet (no jws then). */
      digest: string | null;
      /**
       * @description The same head signed with AUDIT_SIGNING_KEYS: a compact JWS (EdDSA, header kid and typ `pipes-gateway.audit-checkpoint`) over {tenantId, seq, digest, at}. Anyone can check it with the keys of GET /v1/audit/signing-keys.
       * @example eyJhbGciOiJFZERTQSIsImtpZCI6ImF1ZGl0LTIwMjYtMTEtMjkiLCJ0eXAiOiJwaXBlcy1nYXRld2F5LmF1ZGl0LWNoZWNrcG9pbnQifQ.eyJ0ZW5hbnRJZCI6Ii4uLiJ9.c2ln
       */
      jws: string | null;
    };
    RecordAuditReviewDto: {
      /**
       * @description The newest event reviewed: at most the chain head, after the previous review's throughSeq. The review covers every event from the one after the previous review (or the first) through it.
       * @example 1042
       */
      throughSeq: number;
      /**
       * @description 1 to 1000 printable characters on one line, no secret; kept in the log.
       * @example Monthly access review: two keys revoked, nothing unexplained.
       */
      note?: string;
    };
    AuditReviewerView: {
      /**
       * @description As the event records it.
       * @example user:dana@example.com
       */
      actor: string;
      /**
       * @description The actor's name: a key's name, a person's verified address; null when none is known.
       * @example dana@example.com
       */
      name: string | null;
      /** @description X-On-Behalf-Of of the request. */
      onBehalfOf: string | null;
    };
    AuditReviewView: {
      /** @description The seq of the `audit.review` event that records the review. */
      seq: number;
      /** Format: date-time */
      at: string;
      /** @description The first event the review covers. */
      fromSeq: number;
      /** @description The last event the review covers. */
      throughSeq: number;
      /** @description The public digest of the event at throughSeq when the review was made: the review vouches for the chain as it stood up to it. */
      throughDigest: string | null;
      reviewer: components['schemas']['AuditReviewerView'];
      note: string | null;
    };
    AuditReviewStatusView: {
      /** @description null before the first review. */
      latest: components['schemas']['AuditReviewView'] | null;
      /** @description The seq of the newest event (0 for an empty log). */
      headSeq: number;
      /** @description Events after the latest review (all, before the first) not yet reviewed; review events themselves are not counted. */
      unreviewedEvents: number;
    };
    SigningJwkView: {
      /** @enum {string} */
      kty: 'OKP';
      /** @enum {string} */
      crv: 'Ed25519';
      /** @description The public key, base64url. */
      x: string;
      /**
       * @description The key id JWS headers name.
       * @example audit-2026-11-29
       */
      kid: string;
      /** @enum {string} */
      alg: 'EdDSA';
      /** @enum {string} */
      use: 'sig';
    };
    SigningKeySetView: {
      /** @description The signing key first, then older ones kept to verify. */
      keys: components['schemas']['SigningJwkView'][];
    };
    AuditSinkView: {
      /** @enum {string} */
      kind: 'syslog' | 'webhook';
      /**
       * @description Where it delivers, without credentials: user-info and query are left out.
       * @example tls://siem.internal:6514
       */
      address: string;
      /** @description Events written but not yet delivered, over every tenant. */
      eventsBehind: number;
      /** @description Age in seconds of the oldest event not yet delivered; 0 when none waits. */
      secondsBehind: number;
      /**
       * Format: date-time
       * @description When a batch was last delivered.
       */
      lastDeliveryAt: string | null;
      /**
       * @description The last delivery failure, kept after later deliveries succeed (see `lastErrorAt`).
       * @example the webhook receiver answered HTTP 503
       */
      lastError: string | null;
      /** Format: date-time */
      lastErrorAt: string | null;
      /**
       * @description The replica shipping the sink now (host, process and instance), or null when none holds its lease.
       * @example gateway-7c9f:1:5b2e4a1c
       */
      shippedBy: string | null;
    };
    AuditSinksView: {
      /** @description The configured sinks; empty when none is. */
      sinks: components['schemas']['AuditSinkView'][];
    };
    AuditSinkStateView: {
      /** @enum {string} */
      kind: 'syslog' | 'webhook';
      /** @description Age in seconds of the oldest event the sink has not yet taken, over the whole gateway; 0 when it has them all. */
      secondsBehind: number;
      /**
       * Format: date-time
       * @description When a batch was last delivered.
       */
      lastDeliveryAt: string | null;
      /**
       * Format: date-time
       * @description When a delivery last failed.
       */
      lastErrorAt: string | null;
      /** @description Deliveries fail now: the last failure came after the last delivery. The operator sees why. */
      failing: boolean;
    };
    AuditSinkStatesView: {
      /** @description The configured sinks; empty when the audit log goes to none but the database. */
      sinks: components['schemas']['AuditSinkStateView'][];
    };
    CreateGatewayKeyDto: {
      /**
       * @description What the key is for; 1 to 100 printable characters, no invisible characters and nothing shaped like a secret.
       * @example orders-frontend
       */
      name: string;
      /**
       * @example [
       *       "operator"
       *     ]
       */
      roles: ('admin' | 'operator' | 'viewer' | 'auditor')[];
      /**
       * @description Whether calls with this key may name a person in X-On-Behalf-Of. false for services that never act for people: such a key sending the header is refused with 403.
       * @default true
       */
      delegate: boolean;
    };
    CreatedGatewayKeyView: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      tenantId: string;
      name: string;
      roles: ('admin' | 'operator' | 'viewer' | 'auditor')[];
      /** @description Whether calls with this key may send X-On-Behalf-Of. */
      delegate: boolean;
      /**
       * @description Public start of the key, to tell keys apart; not a secret.
       * @example pgw_AbCdEfGhIjKl
       */
      keyPrefix: string;
      /** @description Who issued it: `key:<id>`, `user:<email>` (a verified address), `user-sub:<sub>`, `platform`, `cli`, `sandbox` or `gateway`, with " for <person>" after a key's X-On-Behalf-Of. */
      createdBy: string;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      lastUsedAt?: string | null;
      /** Format: date-time */
      revokedAt?: string | null;
      /** @description The key itself. Shown only in this response; store it now. */
      key: string;
    };
    GatewayKeyView: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      tenantId: string;
      name: string;
      roles: ('admin' | 'operator' | 'viewer' | 'auditor')[];
      /** @description Whether calls with this key may send X-On-Behalf-Of. */
      delegate: boolean;
      /**
       * @description Public start of the key, to tell keys apart; not a secret.
       * @example pgw_AbCdEfGhIjKl
       */
      keyPrefix: string;
      /** @description Who issued it: `key:<id>`, `user:<email>` (a verified address), `user-sub:<sub>`, `platform`, `cli`, `sandbox` or `gateway`, with " for <person>" after a key's X-On-Behalf-Of. */
      createdBy: string;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      lastUsedAt?: string | null;
      /** Format: date-time */
      revokedAt?: string | null;
    };
    GatewayKeyListView: {
      items: components['schemas']['GatewayKeyView'][];
      nextCursor: string | null;
    };
    CreateTenantDto: {
      /**
       * @description Unique team name: letters, digits, ".", "_", "-"; 1 to 64.
       * @example payments-team
       */
      name: string;
    };
    TenantView: {
      /** Format: uuid */
      id: string;
      name: string;
      /** Format: date-time */
      createdAt: string;
    };
    TenantListView: {
      items: components['schemas']['TenantView'][];
      nextCursor: string | null;
    };
    AssignGroupDto: {
      /**
       * @description A group exactly as the identity provider writes it in the groups claim (OIDC_GROUPS_CLAIM); 1 to 256 printable characters. A group belongs to one tenant at most.
       * @example payments-engineers
       */
      group: string;
    };
    TenantGroupView: {
      /** Format: uuid */
      id: string;
      /** @example payments-engineers */
      group: string;
      /** Format: date-time */
      createdAt: string;
    };
    TenantGroupListView: {
      items: components['schemas']['TenantGroupView'][];
      nextCursor: string | null;
    };
    CreateGroupMappingDto: {
      /**
       * @description A group exactly as the identity provider writes it in the groups claim (OIDC_GROUPS_CLAIM); 1 to 256 printable characters. One mapping per group and tenant; a tenant admin maps only groups the platform assigned to the tenant.
       * @example payments-engineers
       */
      group: string;
      /**
       * @description The roles the group's members get in the tenant; a user's roles are the union over their groups.
       * @example [
       *       "operator"
       *     ]
       */
      roles: ('admin' | 'operator' | 'viewer' | 'auditor')[];
    };
    GroupMappingView: {
      /** Format: uuid */
      id: string;
      /** @example payments-engineers */
      group: string;
      roles: ('admin' | 'operator' | 'viewer' | 'auditor')[];
      /** Format: date-time */
      createdAt: string;
    };
    GroupMappingListView: {
      items: components['schemas']['GroupMappingView'][];
      nextCursor: string | null;
    };
    MeTenantView: {
      /** Format: uuid */
      id: string;
      /** @example payments-team */
      name: string;
      /** @description The caller's roles here: the key's, or the union of what the user's groups are mapped to. */
      roles: ('admin' | 'operator' | 'viewer' | 'auditor')[];
      /**
       * @description The operationIds of this document the caller may call in this tenant (sending X-Tenant-Id with a user token): what a frontend should offer. The gateway still checks every call.
       * @example [
       *       "CredentialsController_list",
       *       "PipesController_list"
       *     ]
       */
      operations: string[];
    };
    MeView: {
      /**
       * @description A gateway key, a signed-in user, or the platform token.
       * @enum {string}
       */
      kind: 'key' | 'user' | 'platform';
      /**
       * @description The name the audit log records for this caller: `key:<id>`, `user:<email>` or `platform`.
       * @example user:alice@example.com
       */
      actor: string;
      /** @description The tenants the caller may act in, by name: a key's own; every tenant a user's groups are mapped into (none when no group is mapped yet); none for the platform token. */
      tenants: components['schemas']['MeTenantView'][];
      /**
       * @description The operationIds the caller may call outside any tenant: this one, and for the platform token the /v1/admin routes.
       * @example [
       *       "MeController_get"
       *     ]
       */
      operations: string[];
    };
    CreateCredentialDto: {
      /** @enum {string} */
      kind: 'pipes' | 'dashboards' | 'secret';
      /**
       * @description 1 to 100 printable characters, no secret.
       * @example prod org key
       */
      name: string;
      /**
       * Format: uuid
       * @description pipes only: the organization this API key belongs to.
       */
      organizationId?: string;
      /** @description pipes only: the API key id. */
      keyId?: string;
      /** @description pipes only: the API key secret. Never returned. */
      keySecret?: string;
      /** @description dashboards only: the API token. Never returned. */
      token?: string;
      /**
       * @description dashboards only: a self-hosted dashboards API (https; its host and port must be in DASHBOARDS_ALLOWED_HOSTS, where an entry without a port admits only 443).
       * @example https://dashboards.internal.example.com
       */
      baseUrl?: string;
      /** @description dashboards only: use this one when a call names no credentialId. */
      isDefault?: boolean;
      /** @description secret only: a string, or an object of string fields such as {username, password}, {accessKeyId, secretKey} or {certificate, privateKey}. Never returned: pipe specs use it by reference, {"$secret": "<name or id>"}. */
      value?:
        | string
        | {
            [key: string]: string;
          };
    };
    CredentialView: {
      /** Format: uuid */
      id: string;
      /** @enum {string} */
      kind: 'pipes' | 'dashboards' | 'secret';
      name: string;
      /**
       * Format: uuid
       * @description pipes only: the organization the key is for (the gateway keeps no organization names).
       */
      organizationId?: string;
      baseUrl?: string;
      /** @description Last 4 characters of the key id (pipes), the token (dashboards) or a string secret of 16 characters or more; empty otherwise. */
      hint: string;
      /** @description secret holding an object: its field names. */
      fields?: string[];
      /** @description dashboards: used when a call names no credentialId. */
      isDefault?: boolean;
      /** @description Starts at 1; each rotation adds 1. */
      version: number;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
      /** Format: date-time */
      lastUsedAt?: string | null;
      /**
       * Format: date-time
       * @description When the upstream last refused this credential (401/403): it needs rotating. Null when it has not since it was stored or last rotated; a rotation clears it.
       */
      rejectedAt?: string | null;
      /**
       * @description The status the upstream refused it with (401 or 403), with rejectedAt.
       * @enum {number|null}
       */
      rejectedStatus?: 401 | 403 | null;
    };
    CredentialListView: {
      items: components['schemas']['CredentialView'][];
      nextCursor: string | null;
    };
    RotateCredentialDto: {
      /** @description pipes only: a new key id (keeps the old one when absent). */
      keyId?: string;
      /** @description pipes: the new key secret (required). */
      keySecret?: string;
      /** @description dashboards: the new token (required). */
      token?: string;
      /** @description secret: the new value (required). */
      value?:
        | string
        | {
            [key: string]: string;
          };
    };
    PropagationOutcomeView: {
      pipeId: string;
      /** @description The pipe's name as the gateway last created or renamed it; null when it never did. */
      pipeName: string | null;
      /** Format: uuid */
      organizationId: string;
      /** Format: uuid */
      serviceId: string;
      /** @description Where in the pipe the secret stands, e.g. source.kafka.credentials. */
      paths: string[];
      /** @description Of those, the places an update cannot change (fixed at create, or inside a list): the pipe keeps the old value there until it is created again. */
      notUpdatable: string[];
      /** @enum {string} */
      outcome: 'updated' | 'failed';
      /** @description What the update of this pipe answered. */
      status: number;
      /** @description Why it failed: the problem the update answered. */
      problem?: Record<string, never>;
    };
    RotatedCredentialView: {
      /** Format: uuid */
      id: string;
      /** @enum {string} */
      kind: 'pipes' | 'dashboards' | 'secret';
      name: string;
      /**
       * Format: uuid
       * @description pipes only: the organization the key is for (the gateway keeps no organization names).
       */
      organizationId?: string;
      baseUrl?: string;
      /** @description Last 4 characters of the key id (pipes), the token (dashboards) or a string secret of 16 characters or more; empty otherwise. */
      hint: string;
      /** @description secret holding an object: its field names. */
      fields?: string[];
      /** @description dashboards: used when a call names no credentialId. */
      isDefault?: boolean;
      /** @description Starts at 1; each rotation adds 1. */
      version: number;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
      /** Format: date-time */
      lastUsedAt?: string | null;
      /**
       * Format: date-time
       * @description When the upstream last refused this credential (401/403): it needs rotating. Null when it has not since it was stored or last rotated; a rotation clears it.
       */
      rejectedAt?: string | null;
      /**
       * @description The status the upstream refused it with (401 or 403), with rejectedAt.
       * @enum {number|null}
       */
      rejectedStatus?: 401 | 403 | null;
      /** @description With ?propagate=true: each pipe that uses the secret, updated upstream or not. */
      propagation?: components['schemas']['PropagationOutcomeView'][];
    };
    SecretUseItemView: {
      pipeId: string;
      /** @description The pipe's name as the gateway last created or renamed it; null when it never did. */
      pipeName: string | null;
      /** Format: uuid */
      organizationId: string;
      /** Format: uuid */
      serviceId: string;
      /** @description Where in the spec the reference stands, e.g. source.kafka.credentials. */
      path: string;
      /**
       * Format: uuid
       * @description The create spec, when it made the reference.
       */
      historyId: string | null;
      /** Format: date-time */
      since: string;
    };
    SecretUseListView: {
      items: components['schemas']['SecretUseItemView'][];
      nextCursor: string | null;
    };
    PipeSpecRecordView: {
      /** Format: uuid */
      id: string;
      /** @description Who submitted it: `key:<id>`, `user:<email>` (a verified address), `user-sub:<sub>`, `platform`, `cli`, `sandbox` or `gateway`. */
      actor: string;
      onBehalfOf?: string | null;
      /** Format: uuid */
      keyId?: string | null;
      /** Format: uuid */
      organizationId: string;
      /** Format: uuid */
      serviceId: string;
      /** @description The create body as submitted: every inline secret replaced by "[redacted]", references to vault secrets ({"$secret": "<name or id>"}) kept as they were. */
      spec: Record<string, never>;
      /** @description SHA-256 of the canonical JSON of the redacted spec. */
      specHash: string;
      /** @enum {string} */
      outcome: 'pending' | 'succeeded' | 'failed' | 'unknown';
      pipeId?: string | null;
      upstreamRequestId?: string | null;
      upstreamStatus?: number | null;
      /** @description The problem the caller received (redacted). */
      error?: Record<string, never> | null;
      requestId: string;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      completedAt?: string | null;
      /**
       * Format: date-time
       * @description When the pipe was deleted through the gateway; the spec is kept for review.
       */
      deletedAt?: string | null;
      /**
       * Format: uuid
       * @description The history entry this spec was submitted again from.
       */
      resubmittedFrom?: string | null;
    };
    PipeSpecHistoryPageView: {
      items: components['schemas']['PipeSpecRecordView'][];
      nextCursor: string | null;
    };
    ResubmitPipeSpecDto: {
      /** @description A name for the new pipe; the recorded one when left out. */
      name?: string;
    };
    DashboardVersionSummaryView: {
      /** @description Starts at 1 per dashboard; each replace or restore stores one. */
      version: number;
      /** @description Whose write replaced this content: `key:<id>`, `user:<email>` (a verified address), `user-sub:<sub>`, `platform`, `cli`, `sandbox` or `gateway`. */
      actor: string;
      onBehalfOf?: string | null;
      /**
       * Format: date-time
       * @description When it was replaced (the content is what it was before).
       */
      createdAt: string;
      tileCount: number;
      /** @description The ETag this content had. */
      etag: string;
    };
    DashboardVersionListView: {
      items: components['schemas']['DashboardVersionSummaryView'][];
      nextCursor: string | null;
    };
    DashboardVersionView: {
      /** @description Starts at 1 per dashboard; each replace or restore stores one. */
      version: number;
      /** @description Whose write replaced this content: `key:<id>`, `user:<email>` (a verified address), `user-sub:<sub>`, `platform`, `cli`, `sandbox` or `gateway`. */
      actor: string;
      onBehalfOf?: string | null;
      /**
       * Format: date-time
       * @description When it was replaced (the content is what it was before).
       */
      createdAt: string;
      tileCount: number;
      /** @description The ETag this content had. */
      etag: string;
      /** @description The dashboard as the upstream returned it before it was replaced. */
      data: Record<string, never>;
    };
    /** @description An error, as `application/problem+json`. `type` ends with a slug that says which error it is (the responses of each operation list them); `detail` says it for people. */
    Problem: {
      /**
       * @description A URI naming the error.
       * @example https://pipes-gateway.dev/problems/validation-failed
       */
      type: string;
      /** @example Validation failed */
      title: string;
      /** @example 400 */
      status: number;
      /** @example The request is not valid; see errors. */
      detail: string;
      /**
       * @description The X-Request-Id of the request; quote it when reporting a problem.
       * @example 0b6f7c1e-3f47-4b8e-9d55-8f1f0c7a2b1d
       */
      requestId: string;
      /**
       * @description While the gateway exports traces (OpenTelemetry): the request's W3C trace id, continued from its `traceparent` when it sent one; find the trace of the request with it.
       * @example 4bf92f3577b34da6a3ce929d0e0e4736
       */
      traceId?: string;
      /** @description On 400: one entry per field or header that is not valid. */
      errors?: {
        /**
         * @description The field (`source.kafka.brokers`, `tiles[0].x`) or `header:<name>`.
         * @example keySecret
         */
        path: string;
        /** @example is required */
        message: string;
      }[];
      /** @description When an upstream's answer caused the error: its status, request id and body, secrets removed. */
      upstream?: {
        /** @example 404 */
        status: number;
        requestId?: string;
        /** @description As the upstream sent it (JSON, text or null), secrets removed. */
        body: unknown;
      };
      /**
       * Format: uuid
       * @description On a 409 `conflict` for a tenant name that is taken, or a group assigned to another tenant: the id of the tenant that has it.
       */
      tenantId?: string;
      /** @description On a 409 `secret-in-use`: the pipes that use the vault secret, named as the gateway last created or renamed them. */
      pipes?: {
        pipeId: string;
        /** @example orders to warehouse */
        name: string | null;
        /** Format: uuid */
        organizationId: string;
        /** Format: uuid */
        serviceId: string;
        /**
         * @example [
         *       "source.kafka.credentials"
         *     ]
         */
        paths: string[];
      }[];
    };
    /** @description A dashboard as the dashboards API describes it; every field it has passes through. */
    Dashboard: {
      /** @example 65a1b2c3d4e5f60718293a4b */
      id?: string;
      name?: string;
      tiles?: ({
        id?: string;
        name?: string;
        x?: number;
        y?: number;
        w?: number;
        h?: number;
      } & {
        [key: string]: unknown;
      })[];
      tags?: string[];
    } & {
      [key: string]: unknown;
    };
    DashboardEnvelope: {
      data: components['schemas']['Dashboard'];
    } & {
      [key: string]: unknown;
    };
    DashboardListEnvelope: {
      data: components['schemas']['Dashboard'][];
    } & {
      [key: string]: unknown;
    };
    DashboardBody: {
      /** @description Ignored by the service on write; accepted so a read dashboard can be written back. */
      id?: string;
      name: string;
      /** @description Tiles left out are deleted. */
      tiles: ({
        /** @description Keeps an existing tile; a tile without an id, or with an unknown one, gets a new id. */
        id?: string;
        name?: string;
        x: number;
        y: number;
        w: number;
        h: number;
        asRatio?: boolean;
        /** @description The 2025 API; or `config`, not both. */
        series?: ({
          /** @description time, table, number, histogram, search or markdown */
          type: string;
          /** @description events or metrics */
          dataSource?: string;
          /** @description count, avg, sum, p99, count_distinct, ... and their _rate forms */
          aggFn?: string;
          field?: string;
          where?: string;
          /** @description sql or lucene */
          whereLanguage?: string;
          groupBy?: string[];
          /** @description asc or desc (table) */
          sortOrder?: string;
          numberFormat?: Record<string, never>;
          /** @description Gauge, Histogram, Sum or Summary */
          metricDataType?: string;
          metricName?: string;
          /** @description markdown */
          content?: string;
          /** @description search */
          fields?: string[];
          sourceId?: string;
          alias?: string;
        } & {
          [key: string]: unknown;
        })[];
        /** @description Today's API: a chart description, passed through as it is. */
        config?: Record<string, never>;
        containerId?: string;
        tabId?: string;
      } & {
        [key: string]: unknown;
      })[];
      tags?: string[];
      filters?: Record<string, never>[];
      savedQuery?: string | null;
      savedQueryLanguage?: string | null;
      savedFilterValues?: unknown[];
      containers?: Record<string, never>[];
    } & {
      [key: string]: unknown;
    };
    /** @description A pipe as the pipes API describes it. Credentials, access keys and connection strings are never in it. */
    Pipe: {
      /** Format: uuid */
      id?: string;
      /** Format: uuid */
      serviceId?: string;
      name?: string;
      /**
       * @description e.g. Provisioning, Running, Stopped, Failed.
       * @example Running
       */
      state?: string;
      /** @description replicas, replicaCpuMillicores, replicaMemoryGb. */
      scaling?: {
        [key: string]: unknown;
      };
      /** @description The source kind object (`kafka`, `objectStorage`, `kinesis`, `postgres`, …), without secrets. */
      source?: {
        [key: string]: unknown;
      };
      /** @description database, table, columns, tableDefinition. */
      destination?: {
        [key: string]: unknown;
      };
      fieldMappings?: ({
        sourceField?: string;
        destinationField?: string;
      } & {
        [key: string]: unknown;
      })[];
      /** @description The pipe's advanced settings, as the service names them (`clickhouse_*` or `engine_*`). */
      settings?: {
        [key: string]: unknown;
      };
      createdAt?: string;
      updatedAt?: string;
    } & {
      [key: string]: unknown;
    };
    /** @description The pipes API envelope with a pipe. */
    PipeEnvelope: {
      /**
       * @description The pipes API's HTTP status.
       * @example 200
       */
      status: number;
      /** @description The pipes API's id for the call. */
      requestId: string;
      result: components['schemas']['Pipe'];
    } & {
      [key: string]: unknown;
    };
    /** @description The pipes API envelope with the service's pipes. */
    PipeListEnvelope: {
      /**
       * @description The pipes API's HTTP status.
       * @example 200
       */
      status: number;
      /** @description The pipes API's id for the call. */
      requestId: string;
      result: components['schemas']['Pipe'][];
    } & {
      [key: string]: unknown;
    };
    /** @description The pipe's advanced settings, as the service names them (`clickhouse_*` or `engine_*`). */
    PipeSettings: {
      [key: string]: unknown;
    };
    /** @description The pipes API envelope with the pipe's settings. */
    PipeSettingsEnvelope: {
      /**
       * @description The pipes API's HTTP status.
       * @example 200
       */
      status: number;
      /** @description The pipes API's id for the call. */
      requestId: string;
      result: components['schemas']['PipeSettings'];
    } & {
      [key: string]: unknown;
    };
    /** @description The pipes API envelope of a call that answers no result. */
    PipesEmptyEnvelope: {
      /**
       * @description The pipes API's HTTP status.
       * @example 200
       */
      status: number;
      /** @description The pipes API's id for the call. */
      requestId: string;
    } & {
      [key: string]: unknown;
    };
    /** @description A vault secret of the tenant, standing for its value where the pipes service takes a secret; the value is put in for the upstream call only. */
    SecretReference: {
      /**
       * @description The secret's name or id.
       * @example kafka-prod
       */
      $secret: string;
    };
    PipeCreateBody: {
      name?: string;
      /** @description Exactly one of kafka, objectStorage, kinesis, pubsub, postgres, mysql, bigquery, mongodb. */
      source: {
        kafka?: {
          /** @enum {string} */
          type?:
            'kafka' | 'redpanda' | 'msk' | 'gcmk' | 'confluent' | 'warpstream' | 'azureeventhub' | 'dokafka';
          /** @enum {string} */
          format?: 'JSONEachRow' | 'Avro' | 'AvroConfluent' | 'Protobuf';
          /** @description Comma-separated host:port list. */
          brokers?: string;
          topics?: string;
          consumerGroup?: string | null;
          /** @enum {string} */
          authentication?:
            'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512' | 'IAM_ROLE' | 'IAM_USER' | 'MUTUAL_TLS';
          iamRole?: string | null;
          offset?: {
            /** @enum {string} */
            strategy?: 'from_beginning' | 'from_latest' | 'from_timestamp';
            /**
             * Format: utc-minute
             * @description UTC to the minute, e.g. 2021-01-01T00:00; required with from_timestamp.
             */
            timestamp?: string | null;
          } | null;
          schemaRegistry?: {
            url?: string;
            /** @enum {string} */
            authentication?: 'PLAIN';
            caCertificate?: string | null;
            credentials?:
              | {
                  username?: string | components['schemas']['SecretReference'];
                  /** @description Secret: password. */
                  password?: string | components['schemas']['SecretReference'];
                }
              | components['schemas']['SecretReference'];
          } | null;
          /** @description PEM certificate of the brokers. */
          caCertificate?: string | null;
          reversePrivateEndpointIds?: string[];
          exactlyOnce?: boolean | null;
          /** @description One form: {username, password} for PLAIN and SCRAM, {accessKeyId, secretKey} for IAM_USER, {connectionString} for Azure Event Hubs, {certificate, privateKey} for MUTUAL_TLS. */
          credentials?:
            | {
                username?: string | components['schemas']['SecretReference'];
                /** @description Secret: SASL password (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512). */
                password?: string | components['schemas']['SecretReference'];
                /** @description IAM user access key id (IAM_USER, e.g. MSK). */
                accessKeyId?: string | components['schemas']['SecretReference'];
                /** @description Secret: IAM user secret key. */
                secretKey?: string | components['schemas']['SecretReference'];
                /** @description Secret: Azure Event Hubs connection string, as a whole. */
                connectionString?: string | components['schemas']['SecretReference'];
                /** @description Client certificate (MUTUAL_TLS), PEM. */
                certificate?: string | components['schemas']['SecretReference'];
                /** @description Secret: Client private key (MUTUAL_TLS), PEM. */
                privateKey?: string | components['schemas']['SecretReference'];
              }
            | components['schemas']['SecretReference'];
        } | null;
        objectStorage?: {
          /** @enum {string} */
          type?: 's3' | 'gcs' | 'dospaces' | 'azureblobstorage' | 'cloudflarer2' | 'ovhobjectstorage';
          /** @enum {string} */
          format?:
            | 'JSONEachRow'
            | 'JSONAsObject'
            | 'CSV'
            | 'CSVWithNames'
            | 'TabSeparated'
            | 'TabSeparatedWithNames'
            | 'Parquet'
            | 'Avro';
          /** @description May contain wildcards. */
          url?: string;
          delimiter?: string | null;
          /** @enum {string|null} */
          compression?: 'none' | 'gzip' | 'gz' | 'brotli' | 'br' | 'xz' | 'LZMA' | 'zstd' | 'auto' | null;
          isContinuous?: boolean | null;
          queueUrl?: string | null;
          skipInitialLoad?: boolean | null;
          startAfter?: string | null;
          /** @enum {string|null} */
          authentication?: 'IAM_ROLE' | 'IAM_USER' | 'CONNECTION_STRING' | 'SERVICE_ACCOUNT' | null;
          iamRole?: string | null;
          /** @description Secret: Azure connection string, as a whole. */
          connectionString?: (string | null) | components['schemas']['SecretReference'];
          /** @description May contain wildcards. */
          path?: string | null;
          azureContainerName?: string | null;
          accessKey?:
            | ({
                accessKeyId?: string | components['schemas']['SecretReference'];
                /** @description Secret: secret access key. */
                secretKey?: string | components['schemas']['SecretReference'];
              } | null)
            | components['schemas']['SecretReference'];
          /** @description Secret: base64 of a GCP service-account JSON key. */
          serviceAccountKey?: (string | null) | components['schemas']['SecretReference'];
        } | null;
        kinesis?: {
          /** @enum {string} */
          format?: 'JSONEachRow' | 'Avro' | 'AvroConfluent';
          streamName?: string;
          region?: string;
          useEnhancedFanOut?: boolean | null;
          /** @enum {string} */
          iteratorType?: 'TRIM_HORIZON' | 'LATEST' | 'AT_TIMESTAMP';
          /** @description UNIX seconds, or the text the service takes; required with AT_TIMESTAMP. Forwarded as sent. */
          timestamp?: (number | null) | string;
          /** @enum {string} */
          authentication?: 'IAM_ROLE' | 'IAM_USER';
          iamRole?: string | null;
          accessKey?:
            | ({
                accessKeyId?: string | components['schemas']['SecretReference'];
                /** @description Secret: secret access key. */
                secretKey?: string | components['schemas']['SecretReference'];
              } | null)
            | components['schemas']['SecretReference'];
        } | null;
        pubsub?: {
          /** @enum {string} */
          format: 'JSONEachRow' | 'Avro' | 'Protobuf';
          projectId: string;
          topic: string;
          /** @enum {string} */
          authentication: 'SERVICE_ACCOUNT';
          /** @enum {string} */
          seekType: 'latest' | 'earliest' | 'timestamp';
          seekTimestamp?: string | null;
          filter?: string | null;
          enableOrdering?: boolean | null;
          ackDeadline?: number | null;
          serviceAccountKey:
            | {
                /** @description Secret: base64 of a GCP service-account JSON key. */
                serviceAccountFile?: string | components['schemas']['SecretReference'];
              }
            | components['schemas']['SecretReference'];
        } | null;
        postgres?: {
          /** @enum {string|null} */
          type?:
            | 'postgres'
            | 'supabase'
            | 'neon'
            | 'alloydb'
            | 'planetscale'
            | 'rdspostgres'
            | 'aurorapostgres'
            | 'cloudsqlpostgres'
            | 'azurepostgres'
            | 'crunchybridge'
            | 'tigerdata'
            | null;
          credentials?:
            | {
                username?: string | components['schemas']['SecretReference'];
                /** @description Secret: password. */
                password?: string | components['schemas']['SecretReference'];
              }
            | components['schemas']['SecretReference'];
          host?: string;
          port?: number;
          /** @enum {string} */
          authentication?: 'basic' | 'IAM_ROLE';
          iamRole?: string;
          tlsHost?: string;
          caCertificate?: string;
          disableTls?: boolean;
          skipCertVerification?: boolean;
          database?: string;
          settings?: {
            syncIntervalSeconds?: number;
            pullBatchSize?: number;
            publicationName?: string;
            /** @enum {string} */
            replicationMode?: 'cdc' | 'snapshot' | 'cdc_only';
            replicationSlotName?: string;
            allowNullableColumns?: boolean;
            initialLoadParallelism?: number;
            snapshotNumRowsPerPartition?: number;
            snapshotNumberOfParallelTables?: number;
            enableFailoverSlots?: boolean;
            deleteOnMerge?: boolean;
          };
          tableMappings?: {
            sourceSchemaName?: string;
            sourceTable?: string;
            targetTable?: string;
            excludedColumns?: string[];
            useCustomSortingKey?: boolean;
            sortingKeys?: string[];
            /** @enum {string} */
            tableEngine?: 'MergeTree' | 'ReplacingMergeTree' | 'Null';
            partitionKey?: string;
            partitionByExpr?: string;
          }[];
        };
        mysql?: {
          /** @enum {string|null} */
          type?: 'mysql' | 'rdsmysql' | 'auroramysql' | 'planetscalevitess' | 'mariadb' | 'rdsmariadb' | null;
          credentials?:
            | {
                username?: string | components['schemas']['SecretReference'];
                /** @description Secret: password. */
                password?: string | components['schemas']['SecretReference'];
              }
            | components['schemas']['SecretReference'];
          host: string;
          port: number;
          /** @enum {string} */
          authentication?: 'basic' | 'IAM_ROLE';
          iamRole?: string;
          tlsHost?: string;
          caCertificate?: string;
          disableTls?: boolean;
          skipCertVerification?: boolean;
          serverId?: number;
          settings: {
            syncIntervalSeconds?: number;
            pullBatchSize?: number;
            /** @enum {string} */
            replicationMode: 'cdc' | 'snapshot' | 'cdc_only';
            /** @enum {string} */
            replicationMechanism?: 'GTID' | 'FILE_POS';
            useCompression?: boolean;
            allowNullableColumns?: boolean;
            initialLoadParallelism?: number;
            snapshotNumRowsPerPartition?: number;
            snapshotNumberOfParallelTables?: number;
            deleteOnMerge?: boolean;
          };
          tableMappings: {
            sourceSchemaName: string;
            sourceTable: string;
            targetTable: string;
            excludedColumns?: string[];
            useCustomSortingKey?: boolean;
            sortingKeys?: string[];
            /** @enum {string} */
            tableEngine?: 'MergeTree' | 'ReplacingMergeTree' | 'Null';
            partitionKey?: string;
          }[];
        } | null;
        bigquery?: {
          snapshotStagingPath?: string;
          settings?: {
            /** @enum {string} */
            replicationMode?: 'snapshot';
            allowNullableColumns?: boolean;
            initialLoadParallelism?: number;
            snapshotNumRowsPerPartition?: number;
            snapshotNumberOfParallelTables?: number;
          };
          tableMappings?: {
            sourceDatasetName?: string;
            sourceTable?: string;
            targetTable?: string;
            excludedColumns?: string[];
            useCustomSortingKey?: boolean;
            sortingKeys?: string[];
            /** @enum {string} */
            tableEngine?: 'MergeTree' | 'ReplacingMergeTree' | 'Null';
          }[];
          credentials?:
            | {
                /** @description Secret: base64 of a GCP service-account JSON key. */
                serviceAccountFile?: string | components['schemas']['SecretReference'];
              }
            | components['schemas']['SecretReference'];
        } | null;
        mongodb?: {
          credentials?:
            | {
                username?: string | components['schemas']['SecretReference'];
                /** @description Secret: password. */
                password?: string | components['schemas']['SecretReference'];
              }
            | components['schemas']['SecretReference'];
          /** @description Connection URI; a password in it is a secret. */
          uri: string;
          /** @enum {string} */
          readPreference: 'primary' | 'primaryPreferred' | 'secondary' | 'secondaryPreferred' | 'nearest';
          tlsHost?: string;
          disableTls?: boolean;
          skipCertVerification?: boolean;
          caCertificate?: string;
          settings: {
            syncIntervalSeconds?: number;
            pullBatchSize?: number;
            /** @enum {string} */
            replicationMode: 'cdc' | 'snapshot' | 'cdc_only';
            snapshotNumRowsPerPartition?: number;
            snapshotNumberOfParallelTables?: number;
            deleteOnMerge?: boolean;
            useJsonNativeFormat?: boolean;
          };
          tableMappings: {
            sourceDatabaseName: string;
            sourceCollection: string;
            targetTable: string;
            /** @enum {string} */
            tableEngine?: 'MergeTree' | 'ReplacingMergeTree' | 'Null';
          }[];
        } | null;
        /** @description Let the service check sample records against the destination. */
        validateSamples?: boolean;
      };
      destination?: {
        database?: string;
        table?: string;
        /** @description Let the service create and own the table. */
        managedTable?: boolean;
        tableDefinition?: {
          engine?: {
            /** @enum {string} */
            type?: 'MergeTree' | 'ReplacingMergeTree' | 'SummingMergeTree' | 'Null';
            versionColumnId?: string | null;
            columnIds?: string[];
          };
          sortingKey?: string[];
          partitionBy?: string;
          primaryKey?: string;
        };
        columns?: {
          name?: string;
          type?: string;
        }[];
        roles?: string[];
      };
      /** @description Which source field fills which destination column; the service says whether each column must be mapped. */
      fieldMappings?: {
        sourceField?: string;
        destinationField?: string;
      }[];
      scaling?: {
        replicas?: number;
        /** @deprecated */
        concurrency?: number;
        replicaCpuMillicores?: number;
        replicaMemoryGb?: number;
      };
      settings?: {
        streaming_max_insert_wait_ms?: number | null;
        object_storage_concurrency?: number | null;
        object_storage_polling_interval_ms?: number | null;
        object_storage_max_insert_bytes?: number | null;
        object_storage_max_file_count?: number | null;
        clickhouse_max_threads?: number | null;
        engine_max_threads?: number | null;
        clickhouse_max_insert_threads?: number | null;
        engine_max_insert_threads?: number | null;
        clickhouse_min_insert_block_size_bytes?: number | null;
        engine_min_insert_block_size_bytes?: number | null;
        clickhouse_max_download_threads?: number | null;
        engine_max_download_threads?: number | null;
        clickhouse_parallel_distributed_insert_select?: number | null;
        engine_parallel_distributed_insert_select?: number | null;
        object_storage_use_cluster_function?: boolean | null;
        clickhouse_parallel_view_processing?: boolean | null;
        engine_parallel_view_processing?: boolean | null;
      } & {
        [key: string]: (string | null) | number | boolean;
      };
    };
    PipeUpdateBody: {
      name?: string | null;
      source?: {
        /** @description Any field of a create's kafka, forwarded as sent; the service documents authentication, iamRole, caCertificate, reversePrivateEndpointIds, credentials as the fields an update changes. */
        kafka?: {
          /** @enum {string|null} */
          type?:
            | 'kafka'
            | 'redpanda'
            | 'msk'
            | 'gcmk'
            | 'confluent'
            | 'warpstream'
            | 'azureeventhub'
            | 'dokafka'
            | null;
          /** @enum {string|null} */
          format?: 'JSONEachRow' | 'Avro' | 'AvroConfluent' | 'Protobuf' | null;
          /** @description Comma-separated host:port list. */
          brokers?: string | null;
          topics?: string | null;
          consumerGroup?: string | null;
          /** @enum {string|null} */
          authentication?:
            'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512' | 'IAM_ROLE' | 'IAM_USER' | 'MUTUAL_TLS' | null;
          iamRole?: string | null;
          offset?: {
            /** @enum {string|null} */
            strategy?: 'from_beginning' | 'from_latest' | 'from_timestamp' | null;
            /**
             * Format: utc-minute
             * @description UTC to the minute, e.g. 2021-01-01T00:00; required with from_timestamp.
             */
            timestamp?: string | null;
          } | null;
          schemaRegistry?: {
            url?: string | null;
            /** @enum {string|null} */
            authentication?: 'PLAIN' | null;
            caCertificate?: string | null;
            credentials?:
              | ({
                  username?: (string | null) | components['schemas']['SecretReference'];
                  /** @description Secret: password. */
                  password?: (string | null) | components['schemas']['SecretReference'];
                } | null)
              | components['schemas']['SecretReference'];
          } | null;
          /** @description PEM certificate of the brokers. */
          caCertificate?: string | null;
          reversePrivateEndpointIds?: string[] | null;
          exactlyOnce?: boolean | null;
          /** @description One form: {username, password} for PLAIN and SCRAM, {accessKeyId, secretKey} for IAM_USER, {connectionString} for Azure Event Hubs, {certificate, privateKey} for MUTUAL_TLS. */
          credentials?:
            | ({
                username?: (string | null) | components['schemas']['SecretReference'];
                /** @description Secret: SASL password (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512). */
                password?: (string | null) | components['schemas']['SecretReference'];
                /** @description IAM user access key id (IAM_USER, e.g. MSK). */
                accessKeyId?: (string | null) | components['schemas']['SecretReference'];
                /** @description Secret: IAM user secret key. */
                secretKey?: (string | null) | components['schemas']['SecretReference'];
                /** @description Secret: Azure Event Hubs connection string, as a whole. */
                connectionString?: (string | null) | components['schemas']['SecretReference'];
                /** @description Client certificate (MUTUAL_TLS), PEM. */
                certificate?: (string | null) | components['schemas']['SecretReference'];
                /** @description Secret: Client private key (MUTUAL_TLS), PEM. */
                privateKey?: (string | null) | components['schemas']['SecretReference'];
              } | null)
            | components['schemas']['SecretReference'];
        } | null;
        /** @description Any field of a create's objectStorage, forwarded as sent; the service documents skipInitialLoad, startAfter, authentication, iamRole, connectionString, path, azureContainerName, accessKey, serviceAccountKey as the fields an update changes. */
        objectStorage?: {
          /** @enum {string|null} */
          type?: 's3' | 'gcs' | 'dospaces' | 'azureblobstorage' | 'cloudflarer2' | 'ovhobjectstorage' | null;
          /** @enum {string|null} */
          format?:
            | 'JSONEachRow'
            | 'JSONAsObject'
            | 'CSV'
            | 'CSVWithNames'
            | 'TabSeparated'
            | 'TabSeparatedWithNames'
            | 'Parquet'
            | 'Avro'
            | null;
          /** @description May contain wildcards. */
          url?: string | null;
          delimiter?: string | null;
          /** @enum {string|null} */
          compression?: 'none' | 'gzip' | 'gz' | 'brotli' | 'br' | 'xz' | 'LZMA' | 'zstd' | 'auto' | null;
          isContinuous?: boolean | null;
          queueUrl?: string | null;
          skipInitialLoad?: boolean | null;
          startAfter?: string | null;
          /** @enum {string|null} */
          authentication?: 'IAM_ROLE' | 'IAM_USER' | 'CONNECTION_STRING' | 'SERVICE_ACCOUNT' | null;
          iamRole?: string | null;
          /** @description Secret: Azure connection string, as a whole. */
          connectionString?: (string | null) | components['schemas']['SecretReference'];
          /** @description May contain wildcards. */
          path?: string | null;
          azureContainerName?: string | null;
          accessKey?:
            | ({
                accessKeyId?: (string | null) | components['schemas']['SecretReference'];
                /** @description Secret: secret access key. */
                secretKey?: (string | null) | components['schemas']['SecretReference'];
              } | null)
            | components['schemas']['SecretReference'];
          /** @description Secret: base64 of a GCP service-account JSON key. */
          serviceAccountKey?: (string | null) | components['schemas']['SecretReference'];
        } | null;
        /** @description Any field of a create's kinesis, forwarded as sent; the service documents authentication, iamRole, accessKey as the fields an update changes. */
        kinesis?: {
          /** @enum {string|null} */
          format?: 'JSONEachRow' | 'Avro' | 'AvroConfluent' | null;
          streamName?: string | null;
          region?: string | null;
          useEnhancedFanOut?: boolean | null;
          /** @enum {string|null} */
          iteratorType?: 'TRIM_HORIZON' | 'LATEST' | 'AT_TIMESTAMP' | null;
          /** @description UNIX seconds, or the text the service takes; required with AT_TIMESTAMP. Forwarded as sent. */
          timestamp?: (number | null) | string;
          /** @enum {string|null} */
          authentication?: 'IAM_ROLE' | 'IAM_USER' | null;
          iamRole?: string | null;
          accessKey?:
            | ({
                accessKeyId?: (string | null) | components['schemas']['SecretReference'];
                /** @description Secret: secret access key. */
                secretKey?: (string | null) | components['schemas']['SecretReference'];
              } | null)
            | components['schemas']['SecretReference'];
        } | null;
        /** @description Any field of a create's pubsub, forwarded as sent; the service documents authentication, ackDeadline, serviceAccountKey as the fields an update changes. */
        pubsub?: {
          /** @enum {string|null} */
          format?: 'JSONEachRow' | 'Avro' | 'Protobuf' | null;
          projectId?: string | null;
          topic?: string | null;
          /** @enum {string|null} */
          authentication?: 'SERVICE_ACCOUNT' | null;
          /** @enum {string|null} */
          seekType?: 'latest' | 'earliest' | 'timestamp' | null;
          seekTimestamp?: string | null;
          filter?: string | null;
          enableOrdering?: boolean | null;
          ackDeadline?: number | null;
          serviceAccountKey?:
            | ({
                /** @description Secret: base64 of a GCP service-account JSON key. */
                serviceAccountFile?: (string | null) | components['schemas']['SecretReference'];
              } | null)
            | components['schemas']['SecretReference'];
        } | null;
        /** @description Any field of a create's postgres, forwarded as sent; the service documents credentials, host, port, tlsHost, caCertificate, disableTls, skipCertVerification, database, settings, tableMappingsToAdd, tableMappingsToRemove as the fields an update changes. */
        postgres?: {
          /** @enum {string|null} */
          type?:
            | 'postgres'
            | 'supabase'
            | 'neon'
            | 'alloydb'
            | 'planetscale'
            | 'rdspostgres'
            | 'aurorapostgres'
            | 'cloudsqlpostgres'
            | 'azurepostgres'
            | 'crunchybridge'
            | 'tigerdata'
            | null;
          credentials?:
            | ({
                username?: (string | null) | components['schemas']['SecretReference'];
                /** @description Secret: password. */
                password?: (string | null) | components['schemas']['SecretReference'];
              } | null)
            | components['schemas']['SecretReference'];
          host?: string | null;
          port?: number | null;
          /** @enum {string|null} */
          authentication?: 'basic' | 'IAM_ROLE' | null;
          iamRole?: string | null;
          tlsHost?: string | null;
          caCertificate?: string | null;
          disableTls?: boolean | null;
          skipCertVerification?: boolean | null;
          database?: string | null;
          settings?: {
            syncIntervalSeconds?: number | null;
            pullBatchSize?: number | null;
            publicationName?: string | null;
            /** @enum {string|null} */
            replicationMode?: 'cdc' | 'snapshot' | 'cdc_only' | null;
            replicationSlotName?: string | null;
            allowNullableColumns?: boolean | null;
            initialLoadParallelism?: number | null;
            snapshotNumRowsPerPartition?: number | null;
            snapshotNumberOfParallelTables?: number | null;
            enableFailoverSlots?: boolean | null;
            deleteOnMerge?: boolean | null;
          } | null;
          tableMappings?:
            | {
                sourceSchemaName?: string | null;
                sourceTable?: string | null;
                targetTable?: string | null;
                excludedColumns?: string[] | null;
                useCustomSortingKey?: boolean | null;
                sortingKeys?: string[] | null;
                /** @enum {string|null} */
                tableEngine?: 'MergeTree' | 'ReplacingMergeTree' | 'Null' | null;
                partitionKey?: string | null;
                partitionByExpr?: string | null;
              }[]
            | null;
          tableMappingsToAdd?:
            | {
                sourceSchemaName?: string | null;
                sourceTable?: string | null;
                targetTable?: string | null;
                excludedColumns?: string[] | null;
                useCustomSortingKey?: boolean | null;
                sortingKeys?: string[] | null;
                /** @enum {string|null} */
                tableEngine?: 'MergeTree' | 'ReplacingMergeTree' | 'Null' | null;
                partitionKey?: string | null;
                partitionByExpr?: string | null;
              }[]
            | null;
          /** @description Mappings to remove, named by their tables. */
          tableMappingsToRemove?:
            | {
                sourceSchemaName?: string | null;
                sourceTable?: string | null;
                targetTable?: string | null;
                excludedColumns?: string[] | null;
                useCustomSortingKey?: boolean | null;
                sortingKeys?: string[] | null;
                /** @enum {string|null} */
                tableEngine?: 'MergeTree' | 'ReplacingMergeTree' | 'Null' | null;
                partitionKey?: string | null;
                partitionByExpr?: string | null;
              }[]
            | null;
        } | null;
        /** @description Any field of a create's mysql, forwarded as sent; the service documents credentials, host, port, authentication, iamRole, tlsHost, caCertificate, disableTls, skipCertVerification, serverId, settings, tableMappingsToAdd, tableMappingsToRemove as the fields an update changes. */
        mysql?: {
          /** @enum {string|null} */
          type?: 'mysql' | 'rdsmysql' | 'auroramysql' | 'planetscalevitess' | 'mariadb' | 'rdsmariadb' | null;
          credentials?:
            | ({
                username?: (string | null) | components['schemas']['SecretReference'];
                /** @description Secret: password. */
                password?: (string | null) | components['schemas']['SecretReference'];
              } | null)
            | components['schemas']['SecretReference'];
          host?: string | null;
          port?: number | null;
          /** @enum {string|null} */
          authentication?: 'basic' | 'IAM_ROLE' | null;
          iamRole?: string | null;
          tlsHost?: string | null;
          caCertificate?: string | null;
          disableTls?: boolean | null;
          skipCertVerification?: boolean | null;
          serverId?: number | null;
          settings?: {
            syncIntervalSeconds?: number | null;
            pullBatchSize?: number | null;
            /** @enum {string|null} */
            replicationMode?: 'cdc' | 'snapshot' | 'cdc_only' | null;
            /** @enum {string|null} */
            replicationMechanism?: 'GTID' | 'FILE_POS' | null;
            useCompression?: boolean | null;
            allowNullableColumns?: boolean | null;
            initialLoadParallelism?: number | null;
            snapshotNumRowsPerPartition?: number | null;
            snapshotNumberOfParallelTables?: number | null;
            deleteOnMerge?: boolean | null;
          } | null;
          tableMappings?:
            | {
                sourceSchemaName: string | null;
                sourceTable: string | null;
                targetTable: string | null;
                excludedColumns?: string[] | null;
                useCustomSortingKey?: boolean | null;
                sortingKeys?: string[] | null;
                /** @enum {string|null} */
                tableEngine?: 'MergeTree' | 'ReplacingMergeTree' | 'Null' | null;
                partitionKey?: string | null;
              }[]
            | null;
          tableMappingsToAdd?:
            | {
                sourceSchemaName: string | null;
                sourceTable: string | null;
                targetTable: string | null;
                excludedColumns?: string[] | null;
                useCustomSortingKey?: boolean | null;
                sortingKeys?: string[] | null;
                /** @enum {string|null} */
                tableEngine?: 'MergeTree' | 'ReplacingMergeTree' | 'Null' | null;
                partitionKey?: string | null;
              }[]
            | null;
          /** @description Mappings to remove, named by their tables. */
          tableMappingsToRemove?:
            | {
                sourceSchemaName: string | null;
                sourceTable: string | null;
                targetTable: string | null;
                excludedColumns?: string[] | null;
                useCustomSortingKey?: boolean | null;
                sortingKeys?: string[] | null;
                /** @enum {string|null} */
                tableEngine?: 'MergeTree' | 'ReplacingMergeTree' | 'Null' | null;
                partitionKey?: string | null;
              }[]
            | null;
        } | null;
        /** @description Any field of a create's mongodb, forwarded as sent; the service documents credentials, uri, readPreference, tlsHost, disableTls, skipCertVerification, caCertificate, settings, tableMappingsToAdd, tableMappingsToRemove as the fields an update changes. */
        mongodb?: {
          credentials?:
            | ({
                username?: (string | null) | components['schemas']['SecretReference'];
                /** @description Secret: password. */
                password?: (string | null) | components['schemas']['SecretReference'];
              } | null)
            | components['schemas']['SecretReference'];
          /** @description Connection URI; a password in it is a secret. */
          uri?: string | null;
          /** @enum {string|null} */
          readPreference?:
            'primary' | 'primaryPreferred' | 'secondary' | 'secondaryPreferred' | 'nearest' | null;
          tlsHost?: string | null;
          disableTls?: boolean | null;
          skipCertVerification?: boolean | null;
          caCertificate?: string | null;
          settings?: {
            syncIntervalSeconds?: number | null;
            pullBatchSize?: number | null;
            /** @enum {string|null} */
            replicationMode?: 'cdc' | 'snapshot' | 'cdc_only' | null;
            snapshotNumRowsPerPartition?: number | null;
            snapshotNumberOfParallelTables?: number | null;
            deleteOnMerge?: boolean | null;
            useJsonNativeFormat?: boolean | null;
          } | null;
          tableMappings?:
            | {
                sourceDatabaseName: string | null;
                sourceCollection: string | null;
                targetTable: string | null;
                /** @enum {string|null} */
                tableEngine?: 'MergeTree' | 'ReplacingMergeTree' | 'Null' | null;
              }[]
            | null;
          tableMappingsToAdd?:
            | {
                sourceDatabaseName: string | null;
                sourceCollection: string | null;
                targetTable: string | null;
                /** @enum {string|null} */
                tableEngine?: 'MergeTree' | 'ReplacingMergeTree' | 'Null' | null;
              }[]
            | null;
          /** @description Mappings to remove, named by their tables. */
          tableMappingsToRemove?:
            | {
                sourceDatabaseName: string | null;
                sourceCollection: string | null;
                targetTable: string | null;
                /** @enum {string|null} */
                tableEngine?: 'MergeTree' | 'ReplacingMergeTree' | 'Null' | null;
              }[]
            | null;
        } | null;
        validateSamples?: boolean | null;
      } | null;
      /** @description Only `columns` may change. */
      destination?: {
        columns?:
          | {
              name?: string | null;
              type?: string | null;
            }[]
          | null;
      } | null;
      /** @description Which source field fills which destination column; the service says whether each column must be mapped. */
      fieldMappings?:
        | {
            sourceField?: string | null;
            destinationField?: string | null;
          }[]
        | null;
      settings?:
        | ({
            streaming_max_insert_wait_ms?: number | null;
            object_storage_concurrency?: number | null;
            object_storage_polling_interval_ms?: number | null;
            object_storage_max_insert_bytes?: number | null;
            object_storage_max_file_count?: number | null;
            clickhouse_max_threads?: number | null;
            engine_max_threads?: number | null;
            clickhouse_max_insert_threads?: number | null;
            engine_max_insert_threads?: number | null;
            clickhouse_min_insert_block_size_bytes?: number | null;
            engine_min_insert_block_size_bytes?: number | null;
            clickhouse_max_download_threads?: number | null;
            engine_max_download_threads?: number | null;
            clickhouse_parallel_distributed_insert_select?: number | null;
            engine_parallel_distributed_insert_select?: number | null;
            object_storage_use_cluster_function?: boolean | null;
            clickhouse_parallel_view_processing?: boolean | null;
            engine_parallel_view_processing?: boolean | null;
          } & {
            [key: string]: (string | null) | number | boolean;
          })
        | null;
    };
    PipeStateBody: {
      /**
       * @description start, stop or resync the pipe.
       * @enum {string}
       */
      command: 'start' | 'stop' | 'resync';
    };
    PipeScalingBody: {
      replicas?: number | null;
      /** @deprecated */
      concurrency?: number | null;
      replicaCpuMillicores?: number | null;
      replicaMemoryGb?: number | null;
    };
    PipeSettingsBody: {
      streaming_max_insert_wait_ms?: number | null;
      object_storage_concurrency?: number | null;
      object_storage_polling_interval_ms?: number | null;
      object_storage_max_insert_bytes?: number | null;
      object_storage_max_file_count?: number | null;
      clickhouse_max_threads?: number | null;
      engine_max_threads?: number | null;
      clickhouse_max_insert_threads?: number | null;
      engine_max_insert_threads?: number | null;
      clickhouse_min_insert_block_size_bytes?: number | null;
      engine_min_insert_block_size_bytes?: number | null;
      clickhouse_max_download_threads?: number | null;
      engine_max_download_threads?: number | null;
      clickhouse_parallel_distributed_insert_select?: number | null;
      engine_parallel_distributed_insert_select?: number | null;
      object_storage_use_cluster_function?: boolean | null;
      clickhouse_parallel_view_processing?: boolean | null;
      engine_parallel_view_processing?: boolean | null;
    } & {
      [key: string]: (string | null) | number | boolean;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description The id of this request: the one sent in X-Request-Id if it was kept, else a new UUIDv4. */
    RequestId: string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  AuditController_list: {
    parameters: {
      query?: {
        /** @description Events at or after this instant. */
        from?: string;
        /** @description Events before this instant (exclusive). */
        to?: string;
        /** @description An action (GET /v1/audit/actions lists them), or a prefix ending in a dot for every action of the list that starts with it: `credential.` finds every credential action. */
        action?: string;
        /** @description An actor as events write it, matched exactly (`user:alice@example.com` never matches `user-sub:alice@example.com`); or other text, which matches the person with that address or subject and the tenant's keys of that name or id (`alice@example.com`, `ci deploy`). The list's `actorsLookedFor` says which actors it matched; GET /v1/audit/actors lists them all. */
        actor?: string;
        /** @description Exact target. */
        target?: string;
        outcome?: 'succeeded' | 'failed' | 'denied' | 'pending';
        /** @description Opaque cursor from the previous page. */
        cursor?: string;
        limit?: number;
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Newest first; follow nextCursor for older events. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditEventListView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include auditor, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  AuditController_actions: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditActionListView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include auditor, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  AuditController_actors: {
    parameters: {
      query?: {
        /** @description Opaque cursor from the previous page. */
        cursor?: string;
        limit?: number;
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditActorListView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include auditor, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  AuditController_targets: {
    parameters: {
      query?: {
        /** @description Opaque cursor from the previous page. */
        cursor?: string;
        limit?: number;
        /** @description Only targets of this kind (`pipe` gives `pipe:<id>` targets). */
        kind?:
          'tenant' | 'key' | 'group' | 'group-mapping' | 'credential' | 'pipe-spec' | 'pipe' | 'dashboard';
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditTargetListView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include auditor, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  AuditController_export: {
    parameters: {
      query?: {
        /** @description Events at or after this instant. */
        from?: string;
        /** @description Events before this instant (exclusive). */
        to?: string;
        /** @description An action (GET /v1/audit/actions lists them), or a prefix ending in a dot for every action of the list that starts with it: `credential.` finds every credential action. */
        action?: string;
        /** @description An actor as events write it, matched exactly (`user:alice@example.com` never matches `user-sub:alice@example.com`); or other text, which matches the person with that address or subject and the tenant's keys of that name or id (`alice@example.com`, `ci deploy`). The list's `actorsLookedFor` says which actors it matched; GET /v1/audit/actors lists them all. */
        actor?: string;
        /** @description Exact target. */
        target?: string;
        outcome?: 'succeeded' | 'failed' | 'denied' | 'pending';
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One event per line (the list item shape), oldest first, streamed; same filters as the list; then one `{"checkpoint": "<compact JWS>"}` line covering the last event (none when no event matched). */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/x-ndjson': string;
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include auditor, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  AuditController_verify: {
    parameters: {
      query?: {
        /** @description `start`: every event from the chain's start. `checkpoint`: only the events after the tenant's newest kept checkpoint, whose AUDIT_SIGNING_KEYS signature is checked and whose event must still carry the digest signed: the cost of what was appended since, whatever the log's size. From the start when the tenant has no checkpoint that verifies. */
        from?: 'start' | 'checkpoint';
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description ok, or the first bad seq and why. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ChainVerificationView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include auditor, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  AuditController_verifyAgainstCheckpoint: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['VerifyAgainstCheckpointDto'];
      };
    };
    responses: {
      /** @description ok, or the first bad seq and why. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ChainVerificationView'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include auditor, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `checkpoint-not-genuine`: not signed by this gateway for this tenant, or changed since. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  AuditController_checkpoint: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditCheckpointView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include auditor, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  AuditReviewsController_record: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RecordAuditReviewDto'];
      };
    };
    responses: {
      /** @description The review as recorded. */
      201: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditReviewView'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include auditor, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `range-already-reviewed`: throughSeq is not after the previous review; the detail names it and the seqs that may be reviewed. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `review-beyond-head`: throughSeq is beyond the newest event of the log. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  AuditReviewsController_latest: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditReviewStatusView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include auditor, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  AuditSigningKeysController_signingKeys: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SigningKeySetView'];
        };
      };
      /** @description `bad-request`: the URL holds an encoded NUL (%00). `validation-failed`: a query parameter has a percent-escape that does not decode as UTF-8; `errors` names it. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  AuditSinksController_list: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditSinksView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: platform administration is off (GATEWAY_ADMIN_TOKEN is not set). */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  AuditSinkStatesController_list: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditSinkStatesView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include auditor, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  KeysController_list: {
    parameters: {
      query?: {
        /** @description Opaque cursor from the previous page. */
        cursor?: string;
        limit?: number;
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GatewayKeyListView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include admin, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  KeysController_create: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateGatewayKeyDto'];
      };
    };
    responses: {
      /** @description The key is in `key`, shown this once. */
      201: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CreatedGatewayKeyView'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `forbidden`: `roles` names a role the caller does not hold itself (an admin holds operator and viewer too, never auditor); the detail names each. Or the caller is a key issued with `delegate: false` asking for a key that may delegate.
       *
       *     `forbidden`: the caller's roles do not include admin, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of.
       */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  KeysController_revoke: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The key, now revoked. Calls with it fail at once. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GatewayKeyView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include admin, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `not-found`: the tenant has no gateway key with this id. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  TenantsController_list: {
    parameters: {
      query?: {
        /** @description Opaque cursor from the previous page. */
        cursor?: string;
        limit?: number;
        /** @description Only the tenant with exactly this name. */
        name?: string;
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TenantListView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: platform administration is off (GATEWAY_ADMIN_TOKEN is not set). */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  TenantsController_create: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateTenantDto'];
      };
    };
    responses: {
      201: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TenantView'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: platform administration is off (GATEWAY_ADMIN_TOKEN is not set). */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `conflict`: a tenant with this name already exists; `tenantId` is its id. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  TenantsController_issueKey: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        tenantId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateGatewayKeyDto'];
      };
    };
    responses: {
      /** @description The key is in `key`, shown this once. */
      201: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CreatedGatewayKeyView'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: platform administration is off (GATEWAY_ADMIN_TOKEN is not set). */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `not-found`: there is no tenant with this id. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  TenantsController_listGroups: {
    parameters: {
      query?: {
        /** @description Opaque cursor from the previous page. */
        cursor?: string;
        limit?: number;
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        tenantId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TenantGroupListView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: platform administration is off (GATEWAY_ADMIN_TOKEN is not set). */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  TenantsController_assignGroup: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        tenantId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AssignGroupDto'];
      };
    };
    responses: {
      201: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TenantGroupView'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: platform administration is off (GATEWAY_ADMIN_TOKEN is not set). */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `not-found`: there is no tenant with this id. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `conflict`: the group is assigned already, to this tenant or (then `tenantId` names it) to another. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  TenantsController_unassignGroup: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        tenantId: string;
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Unassigned. */
      204: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: platform administration is off (GATEWAY_ADMIN_TOKEN is not set). */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `not-found`: no such assignment in this tenant. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  TenantsController_listGroupMappings: {
    parameters: {
      query?: {
        /** @description Opaque cursor from the previous page. */
        cursor?: string;
        limit?: number;
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        tenantId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GroupMappingListView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: platform administration is off (GATEWAY_ADMIN_TOKEN is not set). */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  TenantsController_createGroupMapping: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        tenantId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateGroupMappingDto'];
      };
    };
    responses: {
      201: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GroupMappingView'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: platform administration is off (GATEWAY_ADMIN_TOKEN is not set). */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `not-found`: there is no tenant with this id. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `conflict`: the group is already mapped in this tenant, or is assigned to another tenant (`tenantId` names it). */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  TenantsController_removeGroupMapping: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        tenantId: string;
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: platform administration is off (GATEWAY_ADMIN_TOKEN is not set). */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `not-found`: no such mapping in this tenant. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  MeController_get: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          /** @description The entity tag of this answer, quotes included; send it back in If-None-Match. */
          ETag?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MeView'];
        };
      };
      /** @description Not modified: If-None-Match named the current ETag. */
      304: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  CredentialsController_list: {
    parameters: {
      query?: {
        /** @description Opaque cursor from the previous page. */
        cursor?: string;
        limit?: number;
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CredentialListView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include viewer, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  CredentialsController_create: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateCredentialDto'];
      };
    };
    responses: {
      /** @description Metadata only; the secret is never returned. */
      201: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CredentialView'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include admin, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `conflict`: the tenant already has a pipes credential for this organization; rotate it instead. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  CredentialsController_get: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CredentialView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include viewer, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `not-found`: the tenant has no credential with this id. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  CredentialsController_remove: {
    parameters: {
      query?: {
        force?: boolean;
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed; calls that need it now answer 422. */
      204: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include admin, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `not-found`: the tenant has no credential with this id. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `secret-in-use`: pipes use this vault secret; `pipes` lists them (id, name, organization, service, paths) and the detail names them. Send ?force=true to delete it all the same. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  CredentialsController_rotate: {
    parameters: {
      query?: {
        propagate?: boolean;
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RotateCredentialDto'];
      };
    };
    responses: {
      /** @description The new secret replaces the old; version + 1. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RotatedCredentialView'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include admin, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `not-found`: the tenant has no credential with this id. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  SecretUsageController_usage: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SecretUseListView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include viewer, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `not-found`: the tenant has no credential with this id. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  PipesController_list: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Service that owns, or will own, the pipe. */
        serviceId: string;
        /** @description Organization that owns the service. */
        organizationId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description `{status, requestId, result}` from the pipes API, secrets removed. */
      200: {
        headers: {
          /** @description Seconds since the upstream call this answer comes from began (0: read now). */
          Age?: number;
          /** @description `private, max-age=<seconds>`: how much longer the answer may be reused. */
          'Cache-Control'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PipeListEnvelope'];
        };
      };
      /**
       * @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       *
       *     `upstream-rejected-request`: the pipes API answered 400 (it refused the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include viewer, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 404 (no such resource there); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 409 (a conflict with its current state); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 412 (a precondition failed); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 413 (the request was too large for it); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the pipes API answered 422 (it could not process the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `pipes-credential-missing`: the tenant has no pipes credential for this call; an admin stores one with POST /v1/credentials.
       */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-service-idle`: the target service is idle; wake it in the console and try again. */
      424: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       *
       *     `upstream-rate-limited`: the pipes API is rate limiting this credential. `rate-limited`: the gateway holds calls with this credential to PIPES_API_RATE_LIMIT. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.
       *
       *     `credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key that is not configured); nothing was sent upstream. An admin should rotate it.
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-credential-rejected`: the pipes API refused the stored credential, which `detail` names (name and id) and which is marked so until rotated. `upstream-error`: it answered 5xx. `upstream-unreachable`: it could not be reached (`detail` names its scheme, host and port). `upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable. */
      502: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       *
       *     `upstream-circuit-open`: the pipes API failed several times in a row for this credential; calls are paused. Retry after `Retry-After` seconds, which `detail` repeats.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-timeout`: the pipes API did not answer within UPSTREAM_TIMEOUT_MS. */
      504: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  PipesController_create: {
    parameters: {
      query?: never;
      header?: {
        /** @description 1 to 255 printable characters without spaces. The same key with the same body within 24 hours answers the first answer again and no second pipe. */
        'Idempotency-Key'?: string;
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Service that owns, or will own, the pipe. */
        serviceId: string;
        /** @description Organization that owns the service. */
        organizationId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PipeCreateBody'];
      };
    };
    responses: {
      /** @description `{status, requestId, result}` from the pipes API, secrets removed. `result` is the new pipe. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PipeEnvelope'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       *
       *     `upstream-rejected-request`: the pipes API answered 400 (it refused the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include operator, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 404 (no such resource there); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `idempotent-request-in-progress`: a request with this key is still running (retry after `Retry-After`). `idempotent-outcome-unknown`: the first request with this key was interrupted; check before retrying.
       *
       *     `upstream-rejected-request`: the pipes API answered 409 (a conflict with its current state); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      409: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 412 (a precondition failed); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it.
       *
       *     `upstream-rejected-request`: the pipes API answered 413 (the request was too large for it); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `secret-reference-misplaced`: a `{"$secret": name}` reference stands where the pipes service takes no secret (only credential objects, access keys, passwords, secret and private keys, connection strings and service-account keys take one); `errors` names each place, and nothing is sent or recorded. `secret-reference-unknown`: a reference names no vault secret of the tenant; `errors` names each place. `credential-unreadable` (500) if a referenced secret cannot be decrypted.
       *
       *     `idempotency-key-reused`: the key was used within 24 hours for a different request; use a new key.
       *
       *     `upstream-rejected-request`: the pipes API answered 422 (it could not process the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `pipes-credential-missing`: the tenant has no pipes credential for this call; an admin stores one with POST /v1/credentials.
       */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-service-idle`: the target service is idle; wake it in the console and try again. */
      424: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       *
       *     `upstream-rate-limited`: the pipes API is rate limiting this credential. `rate-limited`: the gateway holds calls with this credential to PIPES_API_RATE_LIMIT. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.
       *
       *     `credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key that is not configured); nothing was sent upstream. An admin should rotate it.
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-credential-rejected`: the pipes API refused the stored credential, which `detail` names (name and id) and which is marked so until rotated. `upstream-error`: it answered 5xx. `upstream-unreachable`: it could not be reached (`detail` names its scheme, host and port). `upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable. */
      502: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       *
       *     `upstream-circuit-open`: the pipes API failed several times in a row for this credential; calls are paused. Retry after `Retry-After` seconds, which `detail` repeats.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-timeout`: the pipes API did not answer within UPSTREAM_TIMEOUT_MS. */
      504: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  PipesController_get: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description The pipe. */
        pipeId: string;
        /** @description Service that owns, or will own, the pipe. */
        serviceId: string;
        /** @description Organization that owns the service. */
        organizationId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description `{status, requestId, result}` from the pipes API, secrets removed. */
      200: {
        headers: {
          /** @description Seconds since the upstream call this answer comes from began (0: read now). */
          Age?: number;
          /** @description `private, max-age=<seconds>`: how much longer the answer may be reused. */
          'Cache-Control'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PipeEnvelope'];
        };
      };
      /**
       * @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       *
       *     `upstream-rejected-request`: the pipes API answered 400 (it refused the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include viewer, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 404 (no such resource there); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 409 (a conflict with its current state); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 412 (a precondition failed); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 413 (the request was too large for it); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the pipes API answered 422 (it could not process the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `pipes-credential-missing`: the tenant has no pipes credential for this call; an admin stores one with POST /v1/credentials.
       */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-service-idle`: the target service is idle; wake it in the console and try again. */
      424: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       *
       *     `upstream-rate-limited`: the pipes API is rate limiting this credential. `rate-limited`: the gateway holds calls with this credential to PIPES_API_RATE_LIMIT. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.
       *
       *     `credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key that is not configured); nothing was sent upstream. An admin should rotate it.
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-credential-rejected`: the pipes API refused the stored credential, which `detail` names (name and id) and which is marked so until rotated. `upstream-error`: it answered 5xx. `upstream-unreachable`: it could not be reached (`detail` names its scheme, host and port). `upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable. */
      502: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       *
       *     `upstream-circuit-open`: the pipes API failed several times in a row for this credential; calls are paused. Retry after `Retry-After` seconds, which `detail` repeats.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-timeout`: the pipes API did not answer within UPSTREAM_TIMEOUT_MS. */
      504: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  PipesController_delete: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description The pipe. */
        pipeId: string;
        /** @description Service that owns, or will own, the pipe. */
        serviceId: string;
        /** @description Organization that owns the service. */
        organizationId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description `{status, requestId}` from the pipes API. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PipesEmptyEnvelope'];
        };
      };
      /**
       * @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       *
       *     `upstream-rejected-request`: the pipes API answered 400 (it refused the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include operator, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 404 (no such resource there); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 409 (a conflict with its current state); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 412 (a precondition failed); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 413 (the request was too large for it); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the pipes API answered 422 (it could not process the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `pipes-credential-missing`: the tenant has no pipes credential for this call; an admin stores one with POST /v1/credentials.
       */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-service-idle`: the target service is idle; wake it in the console and try again. */
      424: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       *
       *     `upstream-rate-limited`: the pipes API is rate limiting this credential. `rate-limited`: the gateway holds calls with this credential to PIPES_API_RATE_LIMIT. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.
       *
       *     `credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key that is not configured); nothing was sent upstream. An admin should rotate it.
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-credential-rejected`: the pipes API refused the stored credential, which `detail` names (name and id) and which is marked so until rotated. `upstream-error`: it answered 5xx. `upstream-unreachable`: it could not be reached (`detail` names its scheme, host and port). `upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable. */
      502: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       *
       *     `upstream-circuit-open`: the pipes API failed several times in a row for this credential; calls are paused. Retry after `Retry-After` seconds, which `detail` repeats.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-timeout`: the pipes API did not answer within UPSTREAM_TIMEOUT_MS. */
      504: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  PipesController_update: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description The pipe. */
        pipeId: string;
        /** @description Service that owns, or will own, the pipe. */
        serviceId: string;
        /** @description Organization that owns the service. */
        organizationId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PipeUpdateBody'];
      };
    };
    responses: {
      /** @description `{status, requestId, result}` from the pipes API, secrets removed. `result` is the pipe as updated. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PipeEnvelope'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       *
       *     `upstream-rejected-request`: the pipes API answered 400 (it refused the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include operator, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 404 (no such resource there); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 409 (a conflict with its current state); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 412 (a precondition failed); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it.
       *
       *     `upstream-rejected-request`: the pipes API answered 413 (the request was too large for it); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `secret-reference-misplaced`: a `{"$secret": name}` reference stands where the pipes service takes no secret (only credential objects, access keys, passwords, secret and private keys, connection strings and service-account keys take one); `errors` names each place, and nothing is sent or recorded. `secret-reference-unknown`: a reference names no vault secret of the tenant; `errors` names each place. `credential-unreadable` (500) if a referenced secret cannot be decrypted.
       *
       *     `upstream-rejected-request`: the pipes API answered 422 (it could not process the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `pipes-credential-missing`: the tenant has no pipes credential for this call; an admin stores one with POST /v1/credentials.
       */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-service-idle`: the target service is idle; wake it in the console and try again. */
      424: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       *
       *     `upstream-rate-limited`: the pipes API is rate limiting this credential. `rate-limited`: the gateway holds calls with this credential to PIPES_API_RATE_LIMIT. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.
       *
       *     `credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key that is not configured); nothing was sent upstream. An admin should rotate it.
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-credential-rejected`: the pipes API refused the stored credential, which `detail` names (name and id) and which is marked so until rotated. `upstream-error`: it answered 5xx. `upstream-unreachable`: it could not be reached (`detail` names its scheme, host and port). `upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable. */
      502: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       *
       *     `upstream-circuit-open`: the pipes API failed several times in a row for this credential; calls are paused. Retry after `Retry-After` seconds, which `detail` repeats.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-timeout`: the pipes API did not answer within UPSTREAM_TIMEOUT_MS. */
      504: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  PipesController_changeState: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description The pipe. */
        pipeId: string;
        /** @description Service that owns, or will own, the pipe. */
        serviceId: string;
        /** @description Organization that owns the service. */
        organizationId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PipeStateBody'];
      };
    };
    responses: {
      /** @description `{status, requestId, result}` from the pipes API, secrets removed. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PipeEnvelope'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       *
       *     `upstream-rejected-request`: the pipes API answered 400 (it refused the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include operator, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 404 (no such resource there); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 409 (a conflict with its current state); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 412 (a precondition failed); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it.
       *
       *     `upstream-rejected-request`: the pipes API answered 413 (the request was too large for it); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the pipes API answered 422 (it could not process the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `pipes-credential-missing`: the tenant has no pipes credential for this call; an admin stores one with POST /v1/credentials.
       */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-service-idle`: the target service is idle; wake it in the console and try again. */
      424: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       *
       *     `upstream-rate-limited`: the pipes API is rate limiting this credential. `rate-limited`: the gateway holds calls with this credential to PIPES_API_RATE_LIMIT. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.
       *
       *     `credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key that is not configured); nothing was sent upstream. An admin should rotate it.
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-credential-rejected`: the pipes API refused the stored credential, which `detail` names (name and id) and which is marked so until rotated. `upstream-error`: it answered 5xx. `upstream-unreachable`: it could not be reached (`detail` names its scheme, host and port). `upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable. */
      502: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       *
       *     `upstream-circuit-open`: the pipes API failed several times in a row for this credential; calls are paused. Retry after `Retry-After` seconds, which `detail` repeats.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-timeout`: the pipes API did not answer within UPSTREAM_TIMEOUT_MS. */
      504: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  PipesController_scale: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description The pipe. */
        pipeId: string;
        /** @description Service that owns, or will own, the pipe. */
        serviceId: string;
        /** @description Organization that owns the service. */
        organizationId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PipeScalingBody'];
      };
    };
    responses: {
      /** @description `{status, requestId, result}` from the pipes API, secrets removed. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PipeEnvelope'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       *
       *     `upstream-rejected-request`: the pipes API answered 400 (it refused the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include operator, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 404 (no such resource there); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 409 (a conflict with its current state); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 412 (a precondition failed); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it.
       *
       *     `upstream-rejected-request`: the pipes API answered 413 (the request was too large for it); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the pipes API answered 422 (it could not process the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `pipes-credential-missing`: the tenant has no pipes credential for this call; an admin stores one with POST /v1/credentials.
       */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-service-idle`: the target service is idle; wake it in the console and try again. */
      424: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       *
       *     `upstream-rate-limited`: the pipes API is rate limiting this credential. `rate-limited`: the gateway holds calls with this credential to PIPES_API_RATE_LIMIT. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.
       *
       *     `credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key that is not configured); nothing was sent upstream. An admin should rotate it.
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-credential-rejected`: the pipes API refused the stored credential, which `detail` names (name and id) and which is marked so until rotated. `upstream-error`: it answered 5xx. `upstream-unreachable`: it could not be reached (`detail` names its scheme, host and port). `upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable. */
      502: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       *
       *     `upstream-circuit-open`: the pipes API failed several times in a row for this credential; calls are paused. Retry after `Retry-After` seconds, which `detail` repeats.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-timeout`: the pipes API did not answer within UPSTREAM_TIMEOUT_MS. */
      504: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  PipesController_settings: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description The pipe. */
        pipeId: string;
        /** @description Service that owns, or will own, the pipe. */
        serviceId: string;
        /** @description Organization that owns the service. */
        organizationId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description `{status, requestId, result}` from the pipes API, secrets removed. */
      200: {
        headers: {
          /** @description Seconds since the upstream call this answer comes from began (0: read now). */
          Age?: number;
          /** @description `private, max-age=<seconds>`: how much longer the answer may be reused. */
          'Cache-Control'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PipeSettingsEnvelope'];
        };
      };
      /**
       * @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       *
       *     `upstream-rejected-request`: the pipes API answered 400 (it refused the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include viewer, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 404 (no such resource there); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 409 (a conflict with its current state); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 412 (a precondition failed); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 413 (the request was too large for it); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the pipes API answered 422 (it could not process the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `pipes-credential-missing`: the tenant has no pipes credential for this call; an admin stores one with POST /v1/credentials.
       */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-service-idle`: the target service is idle; wake it in the console and try again. */
      424: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       *
       *     `upstream-rate-limited`: the pipes API is rate limiting this credential. `rate-limited`: the gateway holds calls with this credential to PIPES_API_RATE_LIMIT. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.
       *
       *     `credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key that is not configured); nothing was sent upstream. An admin should rotate it.
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-credential-rejected`: the pipes API refused the stored credential, which `detail` names (name and id) and which is marked so until rotated. `upstream-error`: it answered 5xx. `upstream-unreachable`: it could not be reached (`detail` names its scheme, host and port). `upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable. */
      502: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       *
       *     `upstream-circuit-open`: the pipes API failed several times in a row for this credential; calls are paused. Retry after `Retry-After` seconds, which `detail` repeats.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-timeout`: the pipes API did not answer within UPSTREAM_TIMEOUT_MS. */
      504: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  PipesController_replaceSettings: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description The pipe. */
        pipeId: string;
        /** @description Service that owns, or will own, the pipe. */
        serviceId: string;
        /** @description Organization that owns the service. */
        organizationId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PipeSettingsBody'];
      };
    };
    responses: {
      /** @description `{status, requestId, result}` from the pipes API, secrets removed. `result` is the new settings object. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PipeSettingsEnvelope'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       *
       *     `upstream-rejected-request`: the pipes API answered 400 (it refused the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include operator, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 404 (no such resource there); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 409 (a conflict with its current state); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 412 (a precondition failed); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it.
       *
       *     `upstream-rejected-request`: the pipes API answered 413 (the request was too large for it); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the pipes API answered 422 (it could not process the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `pipes-credential-missing`: the tenant has no pipes credential for this call; an admin stores one with POST /v1/credentials.
       */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-service-idle`: the target service is idle; wake it in the console and try again. */
      424: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       *
       *     `upstream-rate-limited`: the pipes API is rate limiting this credential. `rate-limited`: the gateway holds calls with this credential to PIPES_API_RATE_LIMIT. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.
       *
       *     `credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key that is not configured); nothing was sent upstream. An admin should rotate it.
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-credential-rejected`: the pipes API refused the stored credential, which `detail` names (name and id) and which is marked so until rotated. `upstream-error`: it answered 5xx. `upstream-unreachable`: it could not be reached (`detail` names its scheme, host and port). `upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable. */
      502: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       *
       *     `upstream-circuit-open`: the pipes API failed several times in a row for this credential; calls are paused. Retry after `Retry-After` seconds, which `detail` repeats.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-timeout`: the pipes API did not answer within UPSTREAM_TIMEOUT_MS. */
      504: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  PipeSpecHistoryController_list: {
    parameters: {
      query?: {
        /** @description Opaque cursor from the previous page. */
        cursor?: string;
        limit?: number;
        /** @description Submitted at or after this instant. */
        from?: string;
        /** @description Submitted before this instant (exclusive). */
        to?: string;
        organizationId?: string;
        serviceId?: string;
        outcome?: 'pending' | 'succeeded' | 'failed' | 'unknown';
        /** @description The submitting identity exactly as recorded (`key:<id>`, `user:<email>`, `user-sub:<sub>`), or the on-behalf-of person. */
        actor?: string;
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Newest first. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PipeSpecHistoryPageView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include auditor, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  PipeSpecHistoryController_get: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PipeSpecRecordView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include auditor, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `not-found`: the tenant has no history record with this id. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  PipeSpecHistoryController_resubmit: {
    parameters: {
      query?: never;
      header?: {
        /** @description 1 to 255 printable characters without spaces. The same key with the same body within 24 hours answers the first answer again and no second pipe. */
        'Idempotency-Key'?: string;
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ResubmitPipeSpecDto'];
      };
    };
    responses: {
      /** @description `{status, requestId, result}` from the pipes API, secrets removed; `result` is the new pipe. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PipeEnvelope'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the pipes API answered 400 (it refused the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include operator, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `not-found`: the tenant has no history record with this id.
       *
       *     `upstream-rejected-request`: the pipes API answered 404 (no such resource there); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `spec-holds-inline-secrets`: the spec carried secrets inline, which the history did not keep; `errors` names each place.
       *
       *     `upstream-rejected-request`: the pipes API answered 409 (a conflict with its current state); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `idempotent-request-in-progress`: a request with this key is still running (retry after `Retry-After`). `idempotent-outcome-unknown`: the first request with this key was interrupted; check before retrying.
       */
      409: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the pipes API answered 412 (a precondition failed); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the pipes API answered 413 (the request was too large for it); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it.
       */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the pipes API answered 422 (it could not process the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `pipes-credential-missing`: the tenant has no pipes credential for this call; an admin stores one with POST /v1/credentials.
       *
       *     `secret-reference-misplaced`: a `{"$secret": name}` reference stands where the pipes service takes no secret (only credential objects, access keys, passwords, secret and private keys, connection strings and service-account keys take one); `errors` names each place, and nothing is sent or recorded. `secret-reference-unknown`: a reference names no vault secret of the tenant; `errors` names each place. `credential-unreadable` (500) if a referenced secret cannot be decrypted.
       *
       *     `idempotency-key-reused`: the key was used within 24 hours for a different request; use a new key.
       */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-service-idle`: the target service is idle; wake it in the console and try again. */
      424: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rate-limited`: the pipes API is rate limiting this credential. `rate-limited`: the gateway holds calls with this credential to PIPES_API_RATE_LIMIT. Retry after `Retry-After`.
       *
       *     `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.
       *
       *     `credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key that is not configured); nothing was sent upstream. An admin should rotate it.
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-credential-rejected`: the pipes API refused the stored credential, which `detail` names (name and id) and which is marked so until rotated. `upstream-error`: it answered 5xx. `upstream-unreachable`: it could not be reached (`detail` names its scheme, host and port). `upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable. */
      502: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-circuit-open`: the pipes API failed several times in a row for this credential; calls are paused. Retry after `Retry-After` seconds, which `detail` repeats.
       *
       *     `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-timeout`: the pipes API did not answer within UPSTREAM_TIMEOUT_MS. */
      504: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  PipeEventsController_follow: {
    parameters: {
      query?: {
        /** @description Only this pipe's events. */
        pipeId?: string;
      };
      header?: {
        /** @description The id of the last event received: the stream starts with the events after it. */
        'Last-Event-ID'?: string;
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Service whose pipes to follow. */
        serviceId: string;
        /** @description Organization that owns the service. */
        organizationId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description An open event stream. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': string;
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include viewer, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `too-many-streams`: the key (or person) or the tenant has PIPE_STREAMS_PER_KEY or PIPE_STREAMS_PER_TENANT streams open on this replica.
       *
       *     `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  DashboardsController_list: {
    parameters: {
      query?: {
        /** @description Which of the tenant's dashboards credentials to use; the default one when left out. */
        credentialId?: string;
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description `{data: [dashboard, ...]}` */
      200: {
        headers: {
          /** @description The entity tag of this list, quotes included; send it back in If-None-Match. */
          ETag?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DashboardListEnvelope'];
        };
      };
      /** @description Not modified: If-None-Match named the current ETag. */
      304: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 400 (it refused the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include viewer, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 404 (no such resource there); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `not-found`: the tenant has no dashboards credential with that credentialId.
       */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the dashboards API answered 409 (a conflict with its current state); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the dashboards API answered 412 (a precondition failed); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the dashboards API answered 413 (the request was too large for it); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 422 (it could not process the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `dashboards-credential-missing`: the tenant has no dashboards credential for this call; an admin stores one with POST /v1/credentials.
       */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rate-limited`: the dashboards API is rate limiting this credential. `rate-limited`: the gateway holds calls with this credential to DASHBOARDS_API_RATE_LIMIT. Retry after `Retry-After`.
       *
       *     `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.
       *
       *     `credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key that is not configured); nothing was sent upstream. An admin should rotate it.
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-credential-rejected`: the dashboards API refused the stored credential, which `detail` names (name and id) and which is marked so until rotated. `upstream-error`: it answered 5xx. `upstream-unreachable`: it could not be reached (`detail` names its scheme, host and port). `upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable. */
      502: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-circuit-open`: the dashboards API failed several times in a row for this credential; calls are paused. Retry after `Retry-After` seconds, which `detail` repeats.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-timeout`: the dashboards API did not answer within UPSTREAM_TIMEOUT_MS. */
      504: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  DashboardsController_create: {
    parameters: {
      query?: {
        /** @description Which of the tenant's dashboards credentials to use; the default one when left out. */
        credentialId?: string;
      };
      header?: {
        /** @description 1 to 255 printable characters without spaces. The same key with the same body within 24 hours answers the first answer again and no second dashboard. */
        'Idempotency-Key'?: string;
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['DashboardBody'];
      };
    };
    responses: {
      /** @description `{data: dashboard}` with its new id, and its ETag. */
      201: {
        headers: {
          /** @description The entity tag of the dashboard as it is now, quotes included; send it back in If-Match. */
          ETag?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DashboardEnvelope'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `upstream-rejected-request`: the dashboards API answered 400 (it refused the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include operator, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 404 (no such resource there); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `not-found`: the tenant has no dashboards credential with that credentialId.
       */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `idempotent-request-in-progress`: a request with this key is still running (retry after `Retry-After`). `idempotent-outcome-unknown`: the first request with this key was interrupted; check before retrying.
       *
       *     `upstream-rejected-request`: the dashboards API answered 409 (a conflict with its current state); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      409: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the dashboards API answered 412 (a precondition failed); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it.
       *
       *     `upstream-rejected-request`: the dashboards API answered 413 (the request was too large for it); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `idempotency-key-reused`: the key was used within 24 hours for a different request; use a new key.
       *
       *     `upstream-rejected-request`: the dashboards API answered 422 (it could not process the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `dashboards-credential-missing`: the tenant has no dashboards credential for this call; an admin stores one with POST /v1/credentials.
       */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rate-limited`: the dashboards API is rate limiting this credential. `rate-limited`: the gateway holds calls with this credential to DASHBOARDS_API_RATE_LIMIT. Retry after `Retry-After`.
       *
       *     `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.
       *
       *     `credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key that is not configured); nothing was sent upstream. An admin should rotate it.
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-credential-rejected`: the dashboards API refused the stored credential, which `detail` names (name and id) and which is marked so until rotated. `upstream-error`: it answered 5xx. `upstream-unreachable`: it could not be reached (`detail` names its scheme, host and port). `upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable. */
      502: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-circuit-open`: the dashboards API failed several times in a row for this credential; calls are paused. Retry after `Retry-After` seconds, which `detail` repeats.
       *
       *     `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-timeout`: the dashboards API did not answer within UPSTREAM_TIMEOUT_MS. */
      504: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  DashboardsController_get: {
    parameters: {
      query?: {
        /** @description Which of the tenant's dashboards credentials to use; the default one when left out. */
        credentialId?: string;
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description The dashboard's id at the dashboards API. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description `{data: dashboard}` */
      200: {
        headers: {
          /** @description The entity tag of the dashboard as it is now, quotes included; send it back in If-Match. */
          ETag?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DashboardEnvelope'];
        };
      };
      /** @description Not modified: If-None-Match named the current ETag. */
      304: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 400 (it refused the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include viewer, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 404 (no such resource there); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `not-found`: the tenant has no dashboards credential with that credentialId.
       */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the dashboards API answered 409 (a conflict with its current state); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the dashboards API answered 412 (a precondition failed); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the dashboards API answered 413 (the request was too large for it); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 422 (it could not process the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `dashboards-credential-missing`: the tenant has no dashboards credential for this call; an admin stores one with POST /v1/credentials.
       */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rate-limited`: the dashboards API is rate limiting this credential. `rate-limited`: the gateway holds calls with this credential to DASHBOARDS_API_RATE_LIMIT. Retry after `Retry-After`.
       *
       *     `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.
       *
       *     `credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key that is not configured); nothing was sent upstream. An admin should rotate it.
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-credential-rejected`: the dashboards API refused the stored credential, which `detail` names (name and id) and which is marked so until rotated. `upstream-error`: it answered 5xx. `upstream-unreachable`: it could not be reached (`detail` names its scheme, host and port). `upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable. */
      502: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-circuit-open`: the dashboards API failed several times in a row for this credential; calls are paused. Retry after `Retry-After` seconds, which `detail` repeats.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-timeout`: the dashboards API did not answer within UPSTREAM_TIMEOUT_MS. */
      504: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  DashboardsController_replace: {
    parameters: {
      query?: {
        /** @description Which of the tenant's dashboards credentials to use; the default one when left out. */
        credentialId?: string;
      };
      header?: {
        /** @description The ETag from a read, quotes included (`"5d41…"`), or `*`, or several separated by commas: the write is made only if the dashboard still has one of them. Without it the write proceeds. An unquoted tag is refused with 400. */
        'If-Match'?: string;
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description The dashboard's id at the dashboards API. */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['DashboardBody'];
      };
    };
    responses: {
      /** @description `{data: dashboard}` as updated, with its new ETag. */
      200: {
        headers: {
          /** @description The entity tag of the dashboard as it is now, quotes included; send it back in If-Match. */
          ETag?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DashboardEnvelope'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `upstream-rejected-request`: the dashboards API answered 400 (it refused the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include operator, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 404 (no such resource there); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `not-found`: the tenant has no dashboards credential with that credentialId.
       */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 409 (a conflict with its current state); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `dashboard-busy`: another replica was writing this dashboard and did not finish within UPSTREAM_TIMEOUT_MS; nothing was written. Retry after `Retry-After`.
       */
      409: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `dashboard-changed`: the dashboard changed since it was read (If-Match matches no current ETag), or no longer exists; nothing was written. Read it again; the answer carries the current ETag.
       *
       *     `upstream-rejected-request`: the dashboards API answered 412 (a precondition failed); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      412: {
        headers: {
          /** @description The entity tag of the dashboard as it is now, quotes included; send it back in If-Match. */
          ETag?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it.
       *
       *     `upstream-rejected-request`: the dashboards API answered 413 (the request was too large for it); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 422 (it could not process the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `dashboards-credential-missing`: the tenant has no dashboards credential for this call; an admin stores one with POST /v1/credentials.
       */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rate-limited`: the dashboards API is rate limiting this credential. `rate-limited`: the gateway holds calls with this credential to DASHBOARDS_API_RATE_LIMIT. Retry after `Retry-After`.
       *
       *     `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.
       *
       *     `credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key that is not configured); nothing was sent upstream. An admin should rotate it.
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-credential-rejected`: the dashboards API refused the stored credential, which `detail` names (name and id) and which is marked so until rotated. `upstream-error`: it answered 5xx. `upstream-unreachable`: it could not be reached (`detail` names its scheme, host and port). `upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable. */
      502: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-circuit-open`: the dashboards API failed several times in a row for this credential; calls are paused. Retry after `Retry-After` seconds, which `detail` repeats.
       *
       *     `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-timeout`: the dashboards API did not answer within UPSTREAM_TIMEOUT_MS. */
      504: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  DashboardsController_delete: {
    parameters: {
      query?: {
        /** @description Which of the tenant's dashboards credentials to use; the default one when left out. */
        credentialId?: string;
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description The dashboard's id at the dashboards API. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted upstream. */
      204: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 400 (it refused the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include operator, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 404 (no such resource there); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `not-found`: the tenant has no dashboards credential with that credentialId.
       */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 409 (a conflict with its current state); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `dashboard-busy`: another replica was writing this dashboard and did not finish within UPSTREAM_TIMEOUT_MS; nothing was written. Retry after `Retry-After`.
       */
      409: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the dashboards API answered 412 (a precondition failed); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      412: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the dashboards API answered 413 (the request was too large for it); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 422 (it could not process the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `dashboards-credential-missing`: the tenant has no dashboards credential for this call; an admin stores one with POST /v1/credentials.
       */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rate-limited`: the dashboards API is rate limiting this credential. `rate-limited`: the gateway holds calls with this credential to DASHBOARDS_API_RATE_LIMIT. Retry after `Retry-After`.
       *
       *     `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.
       *
       *     `credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key that is not configured); nothing was sent upstream. An admin should rotate it.
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-credential-rejected`: the dashboards API refused the stored credential, which `detail` names (name and id) and which is marked so until rotated. `upstream-error`: it answered 5xx. `upstream-unreachable`: it could not be reached (`detail` names its scheme, host and port). `upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable. */
      502: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-circuit-open`: the dashboards API failed several times in a row for this credential; calls are paused. Retry after `Retry-After` seconds, which `detail` repeats.
       *
       *     `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-timeout`: the dashboards API did not answer within UPSTREAM_TIMEOUT_MS. */
      504: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  DashboardsController_versions: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description The dashboard's id at the dashboards API. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Newest first: who replaced it, when, tile count. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DashboardVersionListView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include viewer or auditor, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  DashboardsController_version: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description A stored version number. */
        n: number;
        /** @description The dashboard's id at the dashboards API. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DashboardVersionView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include viewer or auditor, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `not-found`: the dashboard has no stored version with that number. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  DashboardsController_restore: {
    parameters: {
      query?: {
        /** @description Which of the tenant's dashboards credentials to use; the default one when left out. */
        credentialId?: string;
      };
      header?: {
        /** @description The ETag from a read, quotes included (`"5d41…"`), or `*`, or several separated by commas: the write is made only if the dashboard still has one of them. Without it the write proceeds. An unquoted tag is refused with 400. */
        'If-Match'?: string;
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description A stored version number. */
        n: number;
        /** @description The dashboard's id at the dashboards API. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description `{data: dashboard}` as restored, with its new ETag. */
      200: {
        headers: {
          /** @description The entity tag of the dashboard as it is now, quotes included; send it back in If-Match. */
          ETag?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DashboardEnvelope'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 400 (it refused the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include operator, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `not-found`: the dashboard has no stored version with that number.
       *
       *     `upstream-rejected-request`: the dashboards API answered 404 (no such resource there); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `not-found`: the tenant has no dashboards credential with that credentialId.
       */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 409 (a conflict with its current state); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `dashboard-busy`: another replica was writing this dashboard and did not finish within UPSTREAM_TIMEOUT_MS; nothing was written. Retry after `Retry-After`.
       */
      409: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `dashboard-changed`: the dashboard changed since it was read (If-Match matches no current ETag), or no longer exists; nothing was written. Read it again; the answer carries the current ETag.
       *
       *     `upstream-rejected-request`: the dashboards API answered 412 (a precondition failed); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       */
      412: {
        headers: {
          /** @description The entity tag of the dashboard as it is now, quotes included; send it back in If-Match. */
          ETag?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-rejected-request`: the dashboards API answered 413 (the request was too large for it); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rejected-request`: the dashboards API answered 422 (it could not process the request); `detail` gives its reason ("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.
       *
       *     `dashboards-credential-missing`: the tenant has no dashboards credential for this call; an admin stores one with POST /v1/credentials.
       */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-rate-limited`: the dashboards API is rate limiting this credential. `rate-limited`: the gateway holds calls with this credential to DASHBOARDS_API_RATE_LIMIT. Retry after `Retry-After`.
       *
       *     `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`.
       */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.
       *
       *     `credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key that is not configured); nothing was sent upstream. An admin should rotate it.
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-credential-rejected`: the dashboards API refused the stored credential, which `detail` names (name and id) and which is marked so until rotated. `upstream-error`: it answered 5xx. `upstream-unreachable`: it could not be reached (`detail` names its scheme, host and port). `upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable. */
      502: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `upstream-circuit-open`: the dashboards API failed several times in a row for this credential; calls are paused. Retry after `Retry-After` seconds, which `detail` repeats.
       *
       *     `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `upstream-timeout`: the dashboards API did not answer within UPSTREAM_TIMEOUT_MS. */
      504: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  HealthController_live: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The process is up. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'ok';
          };
        };
      };
      /** @description `bad-request`: the URL holds an encoded NUL (%00). `validation-failed`: a query parameter has a percent-escape that does not decode as UTF-8; `errors` names it. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  HealthController_ready: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The database answers and every migration is applied. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'ok';
          };
        };
      };
      /** @description `bad-request`: the URL holds an encoded NUL (%00). `validation-failed`: a query parameter has a percent-escape that does not decode as UTF-8; `errors` names it. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unavailable`: the database is not reachable or not migrated, or the process is stopping; not ready to serve traffic. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  MetricsController_render: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Prometheus text format, or OpenMetrics. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
          'application/openmetrics-text': string;
        };
      };
      /** @description `bad-request`: the URL holds an encoded NUL (%00). `validation-failed`: a query parameter has a percent-escape that does not decode as UTF-8; `errors` names it. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  GroupMappingsController_list: {
    parameters: {
      query?: {
        /** @description Opaque cursor from the previous page. */
        cursor?: string;
        limit?: number;
      };
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GroupMappingListView'];
        };
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include admin, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`. */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  GroupMappingsController_create: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateGroupMappingDto'];
      };
    };
    responses: {
      201: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GroupMappingView'];
        };
      };
      /**
       * @description `validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or not valid; `errors` has one entry per field, its path and what is wrong.
       *
       *     `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `forbidden`: `roles` names a role the caller does not hold itself (an admin holds operator and viewer too, never auditor); the detail names each. `group-not-assigned`: the group is not assigned to this tenant (the platform assigns groups to tenants).
       *
       *     `forbidden`: the caller's roles do not include admin, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of.
       */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `conflict`: the group is already mapped in this tenant. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unsupported-media-type`: the body is not sent as `application/json`. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  GroupMappingsController_remove: {
    parameters: {
      query?: never;
      header?: {
        /** @description The person a frontend acts for, recorded in history and audit beside the caller: sent once, 1 to 128 characters (UTF-8), printable (no control, bidi or invisible characters) and nothing shaped like a secret (a gateway key, a token, credentials), else 400. Refused (400) with a user token, whose user is recorded instead, and (403) with a key issued with `delegate: false`. */
        'X-On-Behalf-Of'?: string;
        /** @description With a user token whose groups give roles in several tenants: the tenant to act in (required then, else 400). A key acts in its own tenant; naming another is refused with 403. */
        'X-Tenant-Id'?: string;
        /** @description Your id for this request, answered in the X-Request-Id response header, sent upstream and written to the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", "-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4. */
        'X-Request-Id'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which. */
      401: {
        headers: {
          /** @description The scheme to authenticate with: `Bearer`. */
          'WWW-Authenticate'?: string;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `forbidden`: the caller's roles do not include admin, a user's groups give no role in the tenant, X-Tenant-Id names another tenant than the key's, or the key may not send X-On-Behalf-Of. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `not-found`: no such mapping in this tenant. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from this address. Retry after `Retry-After`. */
      429: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /** @description `internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
      /**
       * @description `overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes, or this tenant more than its TENANT_WRITE_SHARE of them while the rest is kept for other tenants; nothing was done. Retry after `Retry-After`.
       *
       *     `database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.
       */
      503: {
        headers: {
          /** @description Seconds to wait before trying again. */
          'Retry-After'?: number;
          'X-Request-Id': components['headers']['RequestId'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
}
