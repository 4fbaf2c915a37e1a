import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { buildMessage, IsOptional, ValidateBy, ValidateIf } from 'class-validator';
import { IsSafeName } from '../../common/validation/safe-text';
import { REQUIRED } from '../../common/validation/messages';
import { IsFlag, IsOneOf, IsText, IsToken, IsUuid } from '../../common/validation/validation-decorators';

export const CREDENTIAL_KINDS = ['pipes', 'dashboards', 'secret'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

const isPipes = (body: { kind?: unknown }): boolean => body.kind === 'pipes';
const isDashboards = (body: { kind?: unknown }): boolean => body.kind === 'dashboards';
const isSecret = (body: { kind?: unknown }): boolean => body.kind === 'secret';

/** Which optional fields each kind may carry; the service refuses the others by name. */
export const FIELDS_BY_KIND: Record<CredentialKind, readonly string[]> = {
  pipes: ['organizationId', 'keyId', 'keySecret'],
  dashboards: ['token', 'baseUrl', 'isDefault'],
  secret: ['value'],
};

/** A vault secret's value: a string, or an object of string fields (`{username, password}`, ...). */
export type SecretValue = string | Record<string, string>;

const MAX_SECRET_LENGTH = 65_536;
const MAX_SECRET_FIELDS = 20;
const SECRET_FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

function secretValueProblem(value: unknown): string | null {
  if (value === undefined) return REQUIRED;
  if (typeof value === 'string') {
    return value.length >= 1 && value.length <= MAX_SECRET_LENGTH
      ? null
      : `must be 1 to ${MAX_SECRET_LENGTH} characters`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'must be a string or an object of string fields';
  }
  const fields = Object.entries(value);
  if (fields.length < 1 || fields.length > MAX_SECRET_FIELDS) {
    return `must have 1 to ${MAX_SECRET_FIELDS} fields`;
  }
  for (const [name, field] of fields) {
    if (!SECRET_FIELD_NAME.test(name))
      return `has a field name that is not an identifier of at most 64 characters`;
    if (typeof field !== 'string' || field.length < 1 || field.length > MAX_SECRET_LENGTH) {
      return `field ${name} must be a string of 1 to ${MAX_SECRET_LENGTH} characters`;
    }
  }
  return null;
}

/** A vault secret's value, with one message naming what is wrong (never the value). */
function IsSecretValue(): PropertyDecorator {
  return ValidateBy({
    name: 'isSecretValue',
    validator: {
      validate: (value: unknown) => secretValueProblem(value) === null,
      defaultMessage: buildMessage((_each, args) => secretValueProblem(args?.value) ?? ''),
    },
  });
}

const SECRET_VALUE_DOCS = {
  description:
    'secret only: a string, or an object of string fields such as {username, password}, {accessKeyId, secretKey} ' +
    'or {certificate, privateKey}. Never returned: pipe specs use it by reference, {"$secret": "<name or id>"}.',
  writeOnly: true,
  oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }],
};

/**
 * One body for every kind, told apart by `kind`: fields of another kind must be absent, so a
 * misplaced secret is refused rather than silently dropped.
 */
export class CreateCredentialDto {
  @ApiProperty({ enum: CREDENTIAL_KINDS })
  @IsOneOf(CREDENTIAL_KINDS)
  kind!: CredentialKind;

  @ApiProperty({ example: 'prod org key', description: '1 to 100 printable characters, no secret.' })
  @IsSafeName(1, 100)
  name!: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'pipes only: the organization this API key belongs to.',
  })
  @ValidateIf(isPipes)
  @IsUuid()
  organizationId?: string;

  @ApiPropertyOptional({ description: 'pipes only: the API key id.' })
  @ValidateIf(isPipes)
  @IsToken(256)
  keyId?: string;

  @ApiPropertyOptional({ description: 'pipes only: the API key secret. Never returned.', writeOnly: true })
  @ValidateIf(isPipes)
  @IsToken(1024)
  keySecret?: string;

  @ApiPropertyOptional({ description: 'dashboards only: the API token. Never returned.', writeOnly: true })
  @ValidateIf(isDashboards)
  @IsToken(4096)
  token?: string;

  @ApiPropertyOptional({
    description:
      'dashboards only: a self-hosted dashboards API (https; its host and port must be in DASHBOARDS_ALLOWED_HOSTS, where an entry without a port admits only 443).',
    example: 'https://dashboards.internal.example.com',
  })
  @IsOptional()
  @ValidateIf(isDashboards)
  @IsText(1, 2048)
  baseUrl?: string;

  @ApiPropertyOptional({ description: 'dashboards only: use this one when a call names no credentialId.' })
  @IsOptional()
  @IsFlag()
  isDefault?: boolean;

  @ApiPropertyOptional(SECRET_VALUE_DOCS)
  @ValidateIf(isSecret)
  @IsSecretValue()
  value?: SecretValue;
}

export class RotateCredentialDto {
  @ApiPropertyOptional({ description: 'pipes only: a new key id (keeps the old one when absent).' })
  @IsOptional()
  @IsToken(256)
  keyId?: string;

  @ApiPropertyOptional({ description: 'pipes: the new key secret (required).', writeOnly: true })
  @IsOptional()
  @IsToken(1024)
  keySecret?: string;

  @ApiPropertyOptional({ description: 'dashboards: the new token (required).', writeOnly: true })
  @IsOptional()
  @IsToken(4096)
  token?: string;

  @ApiPropertyOptional({ ...SECRET_VALUE_DOCS, description: 'secret: the new value (required).' })
  @IsOptional()
  @IsSecretValue()
  value?: SecretValue;
}

export class CredentialView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: CREDENTIAL_KINDS }) kind!: CredentialKind;
  @ApiProperty() name!: string;
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'pipes only: the organization the key is for (the gateway keeps no organization names).',
  })
  organizationId?: string;
  @ApiPropertyOptional() baseUrl?: string;
  @ApiProperty({
    description:
      'Last 4 characters of the key id (pipes), the token (dashboards) or a string secret of 16 characters or ' +
      'more; empty otherwise.',
  })
  hint!: string;
  @ApiPropertyOptional({ type: [String], description: 'secret holding an object: its field names.' })
  fields?: string[];
  @ApiPropertyOptional({ description: 'dashboards: used when a call names no credentialId.' })
  isDefault?: boolean;
  @ApiProperty({ description: 'Starts at 1; each rotation adds 1.' }) version!: number;
  @ApiProperty() createdAt!: Date;
  @ApiProperty() updatedAt!: Date;
  @ApiPropertyOptional({ nullable: true, type: Date }) lastUsedAt!: Date | null;
  @ApiPropertyOptional({
    nullable: true,
    type: Date,
    description:
      'When the upstream last refused this credential (401/403): it needs rotating. Null when it has not since ' +
      'it was stored or last rotated; a rotation clears it.',
  })
  rejectedAt!: Date | null;
  @ApiPropertyOptional({
    nullable: true,
    type: Number,
    enum: [401, 403, null],
    description: 'The status the upstream refused it with (401 or 403), with rejectedAt.',
  })
  rejectedStatus!: number | null;
}

export class CredentialListView {
  @ApiProperty({ type: [CredentialView] }) items!: CredentialView[];
  @ApiProperty({ nullable: true, type: String }) nextCursor!: string | null;
}
