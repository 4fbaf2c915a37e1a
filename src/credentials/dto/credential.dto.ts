import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, ValidateIf } from 'class-validator';
import { IsSafeName } from '../../common/validation/safe-text';
import { IsFlag, IsOneOf, IsText, IsToken, IsUuid } from '../../common/validation/validation-decorators';

export const CREDENTIAL_KINDS = ['pipes', 'dashboards'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

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
      'dashboards only: a self-hosted dashboards API (https; host must be in DASHBOARDS_ALLOWED_HOSTS).',
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
