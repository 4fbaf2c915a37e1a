import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional, ValidateNested } from 'class-validator';
import { ACTOR_FORMS } from '../../auth/actors';
import {
  AUDIT_ACTION_NAMES,
  AUDIT_TARGET_KINDS,
  type AuditAction,
  type AuditTargetKind,
} from '../audit-actions';
import { PageQueryDto } from '../../common/pagination';
import { typeMessage } from '../../common/validation/messages';
import {
  FieldRule,
  IsDateTime,
  IsOneOf,
  IsText,
  IsUuid,
  IsWholeNumber,
  TextPattern,
} from '../../common/validation/validation-decorators';

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

  @ApiPropertyOptional({
    example: 'credential.rotate',
    description:
      'An action (GET /v1/audit/actions lists them), or a prefix ending in a dot for every action of the ' +
      'list that starts with it: `credential.` finds every credential action.',
  })
  @IsOptional()
  @IsText(1, 100, {
    pattern: /^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*\.([a-z][a-z0-9_-]*)?$/,
    message: 'must be a dotted lower-case name such as credential.rotate, or a prefix such as credential.',
  })
  action?: string;

  @ApiPropertyOptional({
    example: 'key:3f1e2d4c-0000-4000-8000-000000000000',
    description:
      'An actor as events write it, matched exactly (`user:alice@example.com` never matches ' +
      '`user-sub:alice@example.com`); or other text, which matches the person with that address or subject and ' +
      "the tenant's keys of that name or id (`alice@example.com`, `ci deploy`). The list's `actorsLookedFor` " +
      'says which actors it matched; GET /v1/audit/actors lists them all.',
  })
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
    description: `Who acted: ${ACTOR_FORMS} (the gateway's own jobs: retention, use records).`,
  })
  actor!: string;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'X-On-Behalf-Of of the request.' })
  onBehalfOf!: string | null;
  @ApiProperty({ enum: AUDIT_ACTION_NAMES, example: 'credential.rotate' }) action!: AuditAction;
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
  @ApiProperty({
    description:
      "HMAC-SHA-256 over this event's canonical JSON, prevHash included, under the chain key `chainKey`; " +
      'plain SHA-256 for a legacy event.',
  })
  hash!: string;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: 'v1',
    description: 'The AUDIT_CHAIN_KEYS version the event was chained with; null for a legacy event.',
  })
  chainKey!: string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description:
      'The public chain: the digest of the event before (64 zeros for the first). Null only for an event ' +
      'written during an upgrade, until the next start computes it.',
  })
  prevDigest!: string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description:
      "SHA-256 (hex) over this event's canonical form with prevDigest in place of prevHash, chainKey and hash " +
      '(docs/security.md): anyone can recompute it, and checkpoints signed with AUDIT_SIGNING_KEYS vouch for it.',
  })
  digest!: string | null;
}

/** One action of the catalogue, for a frontend's filters. */
export class AuditActionView {
  @ApiProperty({ enum: AUDIT_ACTION_NAMES, example: 'credential.rotate' }) action!: AuditAction;
  @ApiProperty({ example: "A credential's value was replaced by a new version." }) meaning!: string;
  @ApiProperty({
    // OpenAPI 3.0: a nullable enum lists null among its values.
    enum: [...AUDIT_TARGET_KINDS, null],
    nullable: true,
    type: String,
    description: "The kind of target the action's events name, as `<kind>:<id>`; null when they name none.",
  })
  target!: AuditTargetKind | null;
  @ApiProperty({
    description:
      'Its effect happens upstream: a `pending` event before the call, then the outcome (`succeeded` or ' +
      '`failed`) with the same requestId.',
  })
  upstream!: boolean;
}

export class AuditActionListView {
  @ApiProperty({
    type: [AuditActionView],
    description: 'Every action the gateway appends, grouped by subject.',
  })
  items!: AuditActionView[];
}

/** What an answer names by id, with the names the gateway knows for them. */
export const NAMES_PROPERTY = {
  type: 'object',
  additionalProperties: { type: 'string' },
  example: { 'key:3f1e2d4c-0000-4000-8000-000000000000': 'ci deploy', 'pipe:p-42': 'orders to warehouse' },
  description:
    "Names for the actors and targets named, keyed as they are written (`key:<id>`, `pipe:<id>`, ...): a key's " +
    "name, a person's verified address, a credential's, pipe's or dashboard's name, a group's, from the gateway's " +
    'own records (a pipe or dashboard as last created or renamed through the gateway; a deleted credential by ' +
    'the name its events recorded). One the gateway does not know is left out: show it as written.',
} as const;

export class AuditEventListView {
  @ApiProperty({ type: [AuditEventView], description: 'Newest first (descending seq).' })
  items!: AuditEventView[];
  @ApiProperty({ nullable: true, type: String }) nextCursor!: string | null;
  @ApiProperty(NAMES_PROPERTY)
  names!: Record<string, string>;
  @ApiPropertyOptional({
    type: [String],
    example: ['user:dana@example.com', 'user-sub:dana@example.com'],
    description:
      'With an `actor` filter: the actors it matched. One in an actor form is itself; other text matches the ' +
      'person with that address or subject and the keys of that name (in any case), or the key of that id.',
  })
  actorsLookedFor?: string[];
}

export class AuditTargetQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: AUDIT_TARGET_KINDS,
    description: 'Only targets of this kind (`pipe` gives `pipe:<id>` targets).',
  })
  @IsOptional()
  @IsOneOf(AUDIT_TARGET_KINDS)
  kind?: AuditTargetKind;
}

export class AuditActorView {
  @ApiProperty({ example: 'key:3f1e2d4c-0000-4000-8000-000000000000', description: 'As events write it.' })
  actor!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'ci deploy',
    description: "A key's name or a person's verified address; null when the gateway knows none.",
  })
  name!: string | null;
}

export class AuditActorListView {
  @ApiProperty({ type: [AuditActorView], description: 'Each actor of the log once, in text order.' })
  items!: AuditActorView[];
  @ApiProperty({ nullable: true, type: String }) nextCursor!: string | null;
}

export class AuditTargetView {
  @ApiProperty({ example: 'pipe:p-42', description: 'As events write it.' }) target!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'orders to warehouse',
    description: "Its name in the gateway's own records (as in the list's `names`); null when none is known.",
  })
  name!: string | null;
}

export class AuditTargetListView {
  @ApiProperty({ type: [AuditTargetView], description: 'Each target of the log once, in text order.' })
  items!: AuditTargetView[];
  @ApiProperty({ nullable: true, type: String }) nextCursor!: string | null;
}

export const CHAIN_FAULTS = [
  'missing event',
  'prevHash mismatch',
  'hash mismatch',
  'unkeyed event',
  'head mismatch',
  'undeclared start',
  'checkpoint mismatch',
  'truncated',
  'digest mismatch',
] as const;
export type ChainFault = (typeof CHAIN_FAULTS)[number];

export const CHAIN_ANCHOR_STATUSES = ['reached', 'pruned'] as const;
export type ChainAnchorStatus = (typeof CHAIN_ANCHOR_STATUSES)[number];

/** The answer of the verify routes. */
export type ChainVerification =
  | {
      ok: true;
      checked: number;
      lastSeq: number;
      lastHash: string;
      legacyEvents: number;
      checkpoint?: { seq: number; status: ChainAnchorStatus };
    }
  | { ok: false; checked: number; firstBadSeq: number; reason: ChainFault };

export class CheckpointOutcomeView {
  @ApiProperty({ description: 'The seq of the checkpoint given.' }) seq!: number;
  @ApiProperty({
    enum: CHAIN_ANCHOR_STATUSES,
    description:
      '`reached`: the chain still passes through the checkpoint. `pruned`: retention removed the events ' +
      'up to it, so it can no longer be compared.',
  })
  status!: ChainAnchorStatus;
}

export class ChainVerificationView {
  @ApiProperty() ok!: boolean;
  @ApiProperty({ description: 'Events that passed every check.' }) checked!: number;
  @ApiPropertyOptional({ description: 'ok only: the chain head.' }) lastSeq?: number;
  @ApiPropertyOptional({ description: 'ok only: hash of the chain head.' }) lastHash?: string;
  @ApiPropertyOptional({
    description:
      'ok only: how many of the checked events were chained with plain SHA-256, before the chain was keyed: ' +
      "only up to the tenant's legacy end, which the gateway signed when it first recorded it.",
  })
  legacyEvents?: number;
  @ApiPropertyOptional({
    type: CheckpointOutcomeView,
    description:
      'ok only, when a checkpoint was given, or verification started after one (`from=checkpoint`).',
  })
  checkpoint?: CheckpointOutcomeView;
  @ApiPropertyOptional({ description: 'not ok: the first seq that is altered, missing or out of place.' })
  firstBadSeq?: number;
  @ApiPropertyOptional({
    enum: CHAIN_FAULTS,
    description:
      '`hash mismatch`: the event was edited (or names a chain key this gateway does not have). ' +
      '`missing event`: a seq is absent (deleted). `prevHash mismatch`: events were reordered or one was ' +
      'inserted. `unkeyed event`: an event without a chain key past the legacy end the gateway signed for the ' +
      'tenant, or in a chain with none (written without the key). ' +
      '`head mismatch`: the newest events were deleted, or the recorded head disagrees with the last event. ' +
      '`undeclared start`: the chain starts later than retention pruning recorded (a prefix was deleted). ' +
      '`checkpoint mismatch`: the event at a signed point (the checkpoint given, or the legacy end) is not the ' +
      'one signed (rewritten, or removed and replaced). `truncated`: the chain ends before a signed point: ' +
      "events it covered are gone. `digest mismatch`: the public chain is broken there: the event's `digest` is " +
      'not SHA-256 of its canonical form with `prevDigest`, or `prevDigest` is not the digest of the event before ' +
      '(or either is missing).',
  })
  reason?: ChainFault;
}

/** A signed statement of a tenant's chain head, for an auditor to keep outside the gateway. */
export class AuditCheckpointView {
  @ApiProperty({ format: 'uuid' }) tenantId!: string;
  @ApiProperty({ description: 'The chain head: the seq of the newest event (0 for an empty chain).' })
  seq!: number;
  @ApiProperty({ description: 'Hash of that event.' }) hash!: string;
  @ApiProperty({ format: 'date-time', description: 'When the checkpoint was made.' }) at!: string;
  @ApiProperty({ example: 'v2', description: 'The AUDIT_CHAIN_KEYS version that signed it.' })
  keyVersion!: string;
  @ApiProperty({
    description:
      'HMAC-SHA-256 (hex) over the fields above; only this gateway, holding the key, can make or check it.',
  })
  signature!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      "The head event's public digest; null only while an upgrade's start has not computed it yet (no jws then).",
  })
  digest!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example:
      'eyJhbGciOiJFZERTQSIsImtpZCI6ImF1ZGl0LTIwMjYtMTEtMjkiLCJ0eXAiOiJwaXBlcy1nYXRld2F5LmF1ZGl0LWNoZWNrcG9pbnQifQ.eyJ0ZW5hbnRJZCI6Ii4uLiJ9.c2ln',
    description:
      'The same head signed with AUDIT_SIGNING_KEYS: a compact JWS (EdDSA, header kid and typ ' +
      '`pipes-gateway.audit-checkpoint`) over {tenantId, seq, digest, at}. Anyone can check it with the keys of ' +
      'GET /v1/audit/signing-keys.',
  })
  jws!: string | null;
}

export class SigningJwkView {
  @ApiProperty({ enum: ['OKP'] }) kty!: 'OKP';
  @ApiProperty({ enum: ['Ed25519'] }) crv!: 'Ed25519';
  @ApiProperty({ description: 'The public key, base64url.' }) x!: string;
  @ApiProperty({ example: 'audit-2026-11-29', description: 'The key id JWS headers name.' }) kid!: string;
  @ApiProperty({ enum: ['EdDSA'] }) alg!: 'EdDSA';
  @ApiProperty({ enum: ['sig'] }) use!: 'sig';
}

export class SigningKeySetView {
  @ApiProperty({
    type: [SigningJwkView],
    description: 'The signing key first, then older ones kept to verify.',
  })
  keys!: SigningJwkView[];
}

const HEX_64: TextPattern = { pattern: /^[0-9a-f]{64}$/, message: 'must be 64 lower-case hex characters' };

/** A checkpoint an auditor kept, given back to be checked against the chain. */
export class AuditCheckpointDto {
  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  tenantId!: string;

  @ApiProperty({ minimum: 0 })
  @IsWholeNumber(0, 2 ** 31 - 1)
  seq!: number;

  @ApiProperty({ pattern: '^[0-9a-f]{64}$' })
  @IsText(64, 64, HEX_64)
  hash!: string;

  @ApiProperty({ format: 'date-time' })
  @IsDateTime()
  at!: string;

  @ApiProperty({ example: 'v2', pattern: '^v[0-9]{1,9}$' })
  @IsText(2, 10, { pattern: /^v\d{1,9}$/, message: 'must be v followed by digits' })
  keyVersion!: string;

  @ApiProperty({ pattern: '^[0-9a-f]{64}$' })
  @IsText(64, 64, HEX_64)
  signature!: string;

  // Sent back as GET /v1/audit/checkpoint answered it; the chain key's signature is what is checked.
  @ApiPropertyOptional({ nullable: true, type: String, description: 'Ignored.' })
  @IsOptional()
  @IsText(64, 64, HEX_64)
  digest?: string | null;

  @ApiPropertyOptional({ nullable: true, type: String, description: 'Ignored.' })
  @IsOptional()
  @IsText(1, 4096, { pattern: /^[A-Za-z0-9_.-]+$/, message: 'must be a compact JWS' })
  jws?: string | null;
}

export class VerifyAgainstCheckpointDto {
  @ApiProperty({ type: AuditCheckpointDto, description: 'As GET /v1/audit/checkpoint answered it.' })
  @FieldRule('isObject', (value) =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? null : typeMessage('object'),
  )
  @ValidateNested()
  @Type(() => AuditCheckpointDto)
  checkpoint!: AuditCheckpointDto;
}

export const VERIFY_FROM = ['start', 'checkpoint'] as const;

export class AuditVerifyQueryDto {
  @ApiPropertyOptional({
    enum: VERIFY_FROM,
    default: 'start',
    description:
      "`start`: every event from the chain's start. `checkpoint`: only the events after the tenant's newest " +
      'kept checkpoint, whose AUDIT_SIGNING_KEYS signature is checked and whose event must still carry the ' +
      "digest signed: the cost of what was appended since, whatever the log's size. From the start when " +
      'the tenant has no checkpoint that verifies.',
  })
  @IsOptional()
  @IsOneOf(VERIFY_FROM)
  from?: (typeof VERIFY_FROM)[number];
}
