import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, IsUUID, Length, Matches, ValidateIf } from 'class-validator';

export const CREDENTIAL_KINDS = ['pipes', 'dashboards'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

const NO_WHITESPACE = /^\S+$/;
const PRINTABLE = /^[^\p{Cc}]+$/u;
const isPipes = (body: { kind?: unknown }): boolean => body.kind === 'pipes';
const isDashboards = (body: { kind?: unknown }): boolean => body.kind === 'dashboards';

/** Which optional fields each kind may carry; the service refuses the others by name. */
export const FIELDS_BY_KIND: Record<CredentialKind, readonly string[]> = {
  pipes: ['organizationId', 'keyId', 'keySecret'],
  dashboards: ['token', 'baseUrl', 'isDefault'],
};

/**
 * One body for both kinds, told apart by `kind`: fields of the other kind must be absent, so a
 * misplaced secret is refused rather than silently dropped.
 */
export class CreateCredentialDto {
  @ApiProperty({ enum: CREDENTIAL_KINDS })
  @IsIn(CREDENTIAL_KINDS)
  kind!: CredentialKind;

  @ApiProperty({ example: 'prod org key', description: '1 to 100 printable characters.' })
  @IsString()
  @Length(1, 100)
  @Matches(PRINTABLE, { message: 'name must not contain control characters' })
  name!: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'pipes only: the organization this API key belongs to.',
  })
  @ValidateIf(isPipes)
  @IsUUID()
  organizationId?: string;

  @ApiPropertyOptional({ description: 'pipes only: the API key id.' })
  @ValidateIf(isPipes)
  @IsString()
  @Length(1, 256)
  @Matches(NO_WHITESPACE, { message: 'keyId must not contain whitespace' })
  keyId?: string;

  @ApiPropertyOptional({ description: 'pipes only: the API key secret. Never returned.', writeOnly: true })
  @ValidateIf(isPipes)
  @IsString()
  @Length(1, 1024)
  @Matches(NO_WHITESPACE, { message: 'keySecret must not contain whitespace' })
  keySecret?: string;

  @ApiPropertyOptional({ description: 'dashboards only: the API token. Never returned.', writeOnly: true })
  @ValidateIf(isDashboards)
  @IsString()
  @Length(1, 4096)
  @Matches(NO_WHITESPACE, { message: 'token must not contain whitespace' })
  token?: string;

  @ApiPropertyOptional({
    description:
      'dashboards only: a self-hosted dashboards API (https; its host and port must be in DASHBOARDS_ALLOWED_HOSTS, where an entry without a port admits only 443).',
    example: 'https://dashboards.internal.example.com',
  })
  @IsOptional()
  @ValidateIf(isDashboards)
  @IsString()
  @Length(1, 2048)
  baseUrl?: string;

  @ApiPropertyOptional({ description: 'dashboards only: use this one when a call names no credentialId.' })
  @IsOptional()
  @IsBoolean()
  isDefault?: boolean;
}

export class RotateCredentialDto {
  @ApiPropertyOptional({ description: 'pipes only: a new key id (keeps the old one when absent).' })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  @Matches(NO_WHITESPACE, { message: 'keyId must not contain whitespace' })
  keyId?: string;

  @ApiPropertyOptional({ description: 'pipes: the new key secret (required).', writeOnly: true })
  @IsOptional()
  @IsString()
  @Length(1, 1024)
  @Matches(NO_WHITESPACE, { message: 'keySecret must not contain whitespace' })
  keySecret?: string;

  @ApiPropertyOptional({ description: 'dashboards: the new token (required).', writeOnly: true })
  @IsOptional()
  @IsString()
  @Length(1, 4096)
  @Matches(NO_WHITESPACE, { message: 'token must not contain whitespace' })
  token?: string;
}

export class CredentialView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: CREDENTIAL_KINDS }) kind!: CredentialKind;
  @ApiProperty() name!: string;
  @ApiPropertyOptional({ format: 'uuid' }) organizationId?: string;
  @ApiPropertyOptional() baseUrl?: string;
  @ApiProperty({ description: 'Last 4 characters of the key id (pipes) or token (dashboards).' })
  hint!: string;
  @ApiPropertyOptional({ description: 'dashboards: used when a call names no credentialId.' })
  isDefault?: boolean;
  @ApiProperty({ description: 'Starts at 1; each rotation adds 1.' }) version!: number;
  @ApiProperty() createdAt!: Date;
  @ApiProperty() updatedAt!: Date;
  @ApiPropertyOptional({ nullable: true, type: Date }) lastUsedAt!: Date | null;
  @ApiPropertyOptional({
    nullable: true,
    type: Date,
    description: 'Set when the upstream refused this credential (401/403); cleared by a rotation.',
  })
  rejectedAt!: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) rejectedStatus!: number | null;
}

export class CredentialListView {
  @ApiProperty({ type: [CredentialView] }) items!: CredentialView[];
  @ApiProperty({ nullable: true, type: String }) nextCursor!: string | null;
}
