import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { PageQueryDto } from '../../common/pagination';
import { IsDateTime, IsOneOf, IsText, TextPattern } from '../../common/validation/validation-decorators';

export const AUDIT_OUTCOMES = ['succeeded', 'failed', 'denied', 'pending'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

const PRINTABLE: TextPattern = { pattern: /^[^\p{Cc}]+$/u, message: 'must not contain control characters' };

/** The filters shared by the paged list and the NDJSON export; every one narrows the result. */
export class AuditFilterDto {
  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-01-01T00:00:00Z',
    description: 'Events at or after this instant.',
  })
  @IsOptional()
  @IsDateTime()
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-02-01T00:00:00Z',
    description: 'Events before this instant (exclusive).',
  })
  @IsOptional()
  @IsDateTime()
  to?: string;

  @ApiPropertyOptional({ example: 'credential.rotate', description: 'Exact action name.' })
  @IsOptional()
  @IsText(1, 100, {
    pattern: /^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)+$/,
    message: 'must be a dotted lower-case name such as credential.rotate',
  })
  action?: string;

  @ApiPropertyOptional({ example: 'key:3f1e2d4c-0000-4000-8000-000000000000', description: 'Exact actor.' })
  @IsOptional()
  @IsText(1, 200, PRINTABLE)
  actor?: string;

  @ApiPropertyOptional({
    example: 'credential:3f1e2d4c-0000-4000-8000-000000000000',
    description: 'Exact target.',
  })
  @IsOptional()
  @IsText(1, 200, PRINTABLE)
  target?: string;

  @ApiPropertyOptional({ enum: AUDIT_OUTCOMES })
  @IsOptional()
  @IsOneOf(AUDIT_OUTCOMES)
  outcome?: AuditOutcome;
}

export class AuditQueryDto extends IntersectionType(AuditFilterDto, PageQueryDto) {}

export class AuditEventView {
  @ApiProperty({ description: "Position in the tenant's chain: 1, 2, 3, ... with no gaps." }) seq!: number;
  @ApiProperty() at!: Date;
  @ApiProperty({ format: 'uuid' }) tenantId!: string;
  @ApiProperty({
    example: 'key:3f1e2d4c-0000-4000-8000-000000000000',
    description: "`key:<id>`, `platform`, or `gateway` for the gateway's own jobs (retention, use records).",
  })
  actor!: string;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'X-On-Behalf-Of of the request.' })
  onBehalfOf!: string | null;
  @ApiProperty({ example: 'credential.rotate' }) action!: string;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'credential:3f1e2d4c-...' })
  target!: string | null;
  @ApiProperty() requestId!: string;
  @ApiProperty({ enum: AUDIT_OUTCOMES }) outcome!: string;
  @ApiPropertyOptional({ nullable: true, type: Number }) httpStatus!: number | null;
  @ApiPropertyOptional({
    nullable: true,
    type: 'object',
    additionalProperties: true,
    description: 'As recorded; secrets were replaced by "[redacted]" before the event was written.',
  })
  details!: unknown;
  @ApiProperty({ description: 'Hash of the previous event (64 zeros for the first).' }) prevHash!: string;
  @ApiProperty({ description: "SHA-256 over this event's canonical JSON, prevHash included." }) hash!: string;
}

export class AuditEventListView {
  @ApiProperty({ type: [AuditEventView], description: 'Newest first (descending seq).' })
  items!: AuditEventView[];
  @ApiProperty({ nullable: true, type: String }) nextCursor!: string | null;
}

export const CHAIN_FAULTS = ['missing event', 'prevHash mismatch', 'hash mismatch', 'head mismatch'] as const;
export type ChainFault = (typeof CHAIN_FAULTS)[number];

/** The answer of GET /v1/audit/verify. */
export type ChainVerification =
  | { ok: true; checked: number; lastSeq: number; lastHash: string }
  | { ok: false; checked: number; firstBadSeq: number; reason: ChainFault };

export class ChainVerificationView {
  @ApiProperty() ok!: boolean;
  @ApiProperty({ description: 'Events that passed every check.' }) checked!: number;
  @ApiPropertyOptional({ description: 'ok only: the chain head.' }) lastSeq?: number;
  @ApiPropertyOptional({ description: 'ok only: hash of the chain head.' }) lastHash?: string;
  @ApiPropertyOptional({ description: 'not ok: the first seq that is altered, missing or out of place.' })
  firstBadSeq?: number;
  @ApiPropertyOptional({
    enum: CHAIN_FAULTS,
    description:
      '`hash mismatch`: the event was edited. `missing event`: a seq is absent (deleted). ' +
      '`prevHash mismatch`: events were reordered or one was inserted. `head mismatch`: the newest ' +
      'events were deleted, or the recorded head disagrees with the last event.',
  })
  reason?: ChainFault;
}
