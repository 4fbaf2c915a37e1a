import { ApiProperty } from '@nestjs/swagger';
import { ROLES, type Role } from '../../auth/roles';

export const CALLER_KINDS = ['key', 'user', 'platform'] as const;

export class MeTenantView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'payments-team' }) name!: string;
  @ApiProperty({
    enum: ROLES,
    isArray: true,
    description: "The caller's roles here: the key's, or the union of what the user's groups are mapped to.",
  })
  roles!: Role[];
  @ApiProperty({
    type: [String],
    example: ['CredentialsController_list', 'PipesController_list'],
    description:
      'The operationIds of this document the caller may call in this tenant (sending X-Tenant-Id with a user ' +
      'token): what a frontend should offer. The gateway still checks every call.',
  })
  operations!: string[];
}

export class MeView {
  @ApiProperty({
    enum: CALLER_KINDS,
    description: 'A gateway key, a signed-in user, or the platform token.',
  })
  kind!: (typeof CALLER_KINDS)[number];
  @ApiProperty({
    example: 'user:alice@example.com',
    description: 'The name the audit log records for this caller: `key:<id>`, `user:<email>` or `platform`.',
  })
  actor!: string;
  @ApiProperty({
    type: [MeTenantView],
    description:
      "The tenants the caller may act in, by name: a key's own; every tenant a user's groups are mapped into " +
      '(none when no group is mapped yet); none for the platform token.',
  })
  tenants!: MeTenantView[];
  @ApiProperty({
    type: [String],
    example: ['MeController_get'],
    description:
      'The operationIds the caller may call outside any tenant: this one, and for the platform token the ' +
      '/v1/admin routes.',
  })
  operations!: string[];
}
