import { Body, Controller, Get, HttpCode, Post, Query, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Public, RequireRole } from '../auth/auth.decorators';
import type { TenantPrincipal } from '../auth/principal';
import { PageQueryDto, type Page } from '../common/pagination';
import { AuditCheckpointService } from './audit-checkpoint.service';
import type { AuditCheckpoint } from './audit-checkpoint';
import { AuditService } from './audit.service';
import { AuditLogReader, type AuditEventList } from './audit-log-reader';
import { auditActionList } from './audit-actions';
import {
  AuditActionListView,
  AuditActionView,
  AuditActorListView,
  AuditActorView,
  AuditCheckpointView,
  AuditEventListView,
  AuditFilterDto,
  AuditQueryDto,
  AuditTargetListView,
  AuditTargetQueryDto,
  AuditTargetView,
  AuditVerifyQueryDto,
  ChainVerification,
  ChainVerificationView,
  SigningKeySetView,
  VerifyAgainstCheckpointDto,
} from './dto/audit.dto';
import type { SigningJwk } from '../crypto/audit-signing-keys';
import { ApiJsonBody, ApiProblem, ApiUrlProblems } from '../openapi/api-problems';

const NDJSON = 'application/x-ndjson';

/** Review of the caller's own tenant's audit log; reading it is kept apart from every other role. */
@ApiTags('audit')
@Controller('v1/audit')
@RequireRole('auditor')
export class AuditController {
  constructor(
    private readonly audit: AuditService,
    private readonly reader: AuditLogReader,
    private readonly checkpoints: AuditCheckpointService,
  ) {}

  @Get()
  @ApiOperation({
    summary: "Review the tenant's audit log",
    description:
      'Every state-changing call and every credential use, newest first, in keyset pages; the filters narrow it. ' +
      'Secrets were replaced by "[redacted]" before an event was written. `names` gives the names the gateway ' +
      'knows for the actors and targets of the page.',
  })
  @ApiOkResponse({
    type: AuditEventListView,
    description: 'Newest first; follow nextCursor for older events.',
  })
  list(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Query() query: AuditQueryDto,
  ): Promise<AuditEventList> {
    return this.reader.list(principal.tenantId, query);
  }

  @Get('actions')
  @ApiOperation({
    summary: 'The audit action catalogue',
    description:
      'Every action the gateway appends, with its meaning and the kind of target its events name: the choices ' +
      "for the list's and the export's `action` filter. The same for every tenant; an auditor's, like the log.",
  })
  @ApiOkResponse({ type: AuditActionListView })
  actions(): { items: AuditActionView[] } {
    return { items: auditActionList() };
  }

  @Get('actors')
  @ApiOperation({
    summary: 'The actors of the audit log',
    description:
      'Each actor that appears in the log once, with its name (a key by its name, a person by the address), in ' +
      "keyset pages: the choices for the list's `actor` filter.",
  })
  @ApiOkResponse({ type: AuditActorListView })
  actors(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Query() query: PageQueryDto,
  ): Promise<Page<AuditActorView>> {
    return this.reader.actors(principal.tenantId, query);
  }

  @Get('targets')
  @ApiOperation({
    summary: 'The targets of the audit log',
    description:
      'Each target that appears in the log once (of one kind with `kind`), with the name the gateway knows for ' +
      "it, in keyset pages: the choices for the list's `target` filter. No upstream is asked.",
  })
  @ApiOkResponse({ type: AuditTargetListView })
  targets(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Query() query: AuditTargetQueryDto,
  ): Promise<Page<AuditTargetView>> {
    return this.reader.targets(principal.tenantId, query);
  }

  @Get('export')
  @ApiOperation({
    summary: "Export the tenant's audit log",
    description:
      'Newline-delimited JSON, one event per line, oldest first, streamed; the same filters as the list. The last ' +
      'line is `{"checkpoint": "<JWS>"}`: a checkpoint signed with AUDIT_SIGNING_KEYS over the last event, so ' +
      'tools/verify-audit-log.mjs verifies the file offline with the keys of GET /v1/audit/signing-keys.',
  })
  @ApiProduces(NDJSON)
  @ApiOkResponse({
    description:
      'One event per line (the list item shape), oldest first, streamed; same filters as the list; then one ' +
      '`{"checkpoint": "<compact JWS>"}` line covering the last event (none when no event matched).',
    content: { [NDJSON]: { schema: { type: 'string' } } },
  })
  async export(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Query() query: AuditFilterDto,
  ): Promise<StreamableFile> {
    const { tenantId } = principal;
    const end = (last: { seq: number; digest: string }) => this.checkpoints.exportEnd(tenantId, last);
    return new StreamableFile(await this.reader.exportNdjson(tenantId, query, end), {
      type: NDJSON,
      disposition: 'attachment; filename="audit.ndjson"',
    });
  }

  @Get('verify')
  @ApiOperation({
    summary: 'Verify the audit chain',
    description:
      'Recomputes every event of the chain from its start (HMAC under the chain key each event names; ' +
      'plain SHA-256 for legacy events) and checks every link up to the recorded head. A database writer ' +
      'without the chain key cannot make an edited event pass; to find the newest events cut off, verify ' +
      'against a kept checkpoint (POST). `from=checkpoint` verifies only what was appended since the ' +
      "tenant's newest signed checkpoint: `checkpoint` in the answer names it.",
  })
  @ApiOkResponse({ type: ChainVerificationView, description: 'ok, or the first bad seq and why.' })
  verify(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Query() query: AuditVerifyQueryDto,
  ): Promise<ChainVerification> {
    return query.from === 'checkpoint'
      ? this.checkpoints.verifySinceNewest(principal.tenantId)
      : this.audit.verify(principal.tenantId);
  }

  @Post('verify')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Verify the audit chain against a kept checkpoint',
    description:
      'The same verification, and the chain must still pass through the checkpoint: an event there that is ' +
      'not the one it signed is `checkpoint mismatch`, a chain that ends before it is `truncated`. Changes ' +
      'nothing.',
  })
  @ApiJsonBody()
  @ApiOkResponse({ type: ChainVerificationView, description: 'ok, or the first bad seq and why.' })
  @ApiProblem(422, '`checkpoint-not-genuine`: not signed by this gateway for this tenant, or changed since.')
  verifyAgainstCheckpoint(
    @CurrentPrincipal() principal: TenantPrincipal,
    @Body() body: VerifyAgainstCheckpointDto,
  ): Promise<ChainVerification> {
    return this.checkpoints.verifyAgainst(principal.tenantId, body.checkpoint);
  }

  @Get('checkpoint')
  @ApiOperation({
    summary: 'A signed checkpoint of the audit chain head',
    description:
      'Keep it outside the gateway (and its database), then give it back to POST /v1/audit/verify: the chain ' +
      "must still reach it. `jws` signs the head's public digest with AUDIT_SIGNING_KEYS: anyone can check it " +
      'with GET /v1/audit/signing-keys. The checkpoint is also written to the log and kept for the audit sinks; ' +
      'the gateway makes one for each tenant whose head moved every AUDIT_CHECKPOINT_INTERVAL.',
  })
  @ApiOkResponse({ type: AuditCheckpointView })
  checkpoint(@CurrentPrincipal() principal: TenantPrincipal): Promise<AuditCheckpoint> {
    return this.checkpoints.checkpoint(principal.tenantId);
  }
}

/** The checkpoints' public keys: open to anyone, so that a copy of the log can be checked without the gateway. */
@ApiTags('audit')
@Controller('v1/audit')
@Public()
@ApiUrlProblems()
export class AuditSigningKeysController {
  constructor(private readonly checkpoints: AuditCheckpointService) {}

  @Get('signing-keys')
  @ApiOperation({
    summary: 'The public keys of signed audit checkpoints',
    description:
      'A JWKS (RFC 7517, Ed25519 keys as RFC 8037 writes them) of every AUDIT_SIGNING_KEYS key, the signing one ' +
      'first: what tools/verify-audit-log.mjs takes with --keys. No credential: the keys are public.',
  })
  @ApiOkResponse({ type: SigningKeySetView })
  signingKeys(): { keys: SigningJwk[] } {
    return this.checkpoints.publicKeys();
  }
}
