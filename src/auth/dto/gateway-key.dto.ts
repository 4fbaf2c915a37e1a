import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACTOR_FORMS } from '../actors';
import { IsOptional } from 'class-validator';
import { IsSafeName } from '../../common/validation/safe-text';
import { IsFlag, IsSetOf } from '../../common/validation/validation-decorators';
import { ROLES, type Role } from '../roles';

export class CreateGatewayKeyDto {
  @ApiProperty({
    example: 'orders-frontend',
    description:
      'What the key is for; 1 to 100 printable characters, no invisible characters and nothing shaped like a secret.',
  })
  @IsSafeName(1, 100)
  name!: string;

  @ApiProperty({ enum: ROLES, isArray: true, example: ['operator'] })
  @IsSetOf(ROLES, 1, ROLES.length)
  roles!: Role[];

  @ApiPropertyOptional({
    default: true,
    description:
      'Whether calls with this key may name a person in X-On-Behalf-Of. false for services that never act ' +
      'for people: such a key sending the header is refused with 403.',
  })
  @IsOptional()
  @IsFlag()
  delegate?: boolean;
}

export class GatewayKeyView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) tenantId!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ROLES, isArray: true }) roles!: Role[];
  @ApiProperty({ description: 'Whether calls with this key may send X-On-Behalf-Of.' }) delegate!: boolean;
  @ApiProperty({
    description: 'Public start of the key, to tell keys apart; not a secret.',
    example: 'pgw_AbCdEfGhIjKl',
  })
  keyPrefix!: string;
  @ApiProperty({
    description: `Who issued it: ${ACTOR_FORMS}, with " for <person>" after a key's X-On-Behalf-Of.`,
  })
  createdBy!: string;
  @ApiProperty() createdAt!: Date;
  @ApiPropertyOptional({ nullable: true, type: Date }) lastUsedAt!: Date | null;
  @ApiPropertyOptional({ nullable: true, type: Date }) revokedAt!: Date | null;
}

export class CreatedGatewayKeyView extends GatewayKeyView {
  @ApiProperty({ description: 'The key itself. Shown only in this response; store it now.' })
  key!: string;
}

export class GatewayKeyListView {
  @ApiProperty({ type: [GatewayKeyView] }) items!: GatewayKeyView[];
  @ApiProperty({ nullable: true, type: String }) nextCursor!: string | null;
}
