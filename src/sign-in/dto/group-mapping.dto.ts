import { ApiProperty } from '@nestjs/swagger';
import { ROLES, type Role } from '../../auth/roles';
import { IsSafeName } from '../../common/validation/safe-text';
import { IsSetOf } from '../../common/validation/validation-decorators';

export class CreateGroupMappingDto {
  @ApiProperty({
    example: 'payments-engineers',
    description:
      'A group exactly as the identity provider writes it in the groups claim (OIDC_GROUPS_CLAIM); 1 to 256 ' +
      'printable characters. One mapping per group and tenant.',
  })
  @IsSafeName(1, 256)
  group!: string;

  @ApiProperty({
    enum: ROLES,
    isArray: true,
    example: ['operator'],
    description:
      "The roles the group's members get in the tenant; a user's roles are the union over their groups.",
  })
  @IsSetOf(ROLES, 1, ROLES.length)
  roles!: Role[];
}

export class GroupMappingView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'payments-engineers' }) group!: string;
  @ApiProperty({ enum: ROLES, isArray: true }) roles!: Role[];
  @ApiProperty() createdAt!: Date;
}

export class GroupMappingListView {
  @ApiProperty({ type: [GroupMappingView] }) items!: GroupMappingView[];
  @ApiProperty({ nullable: true, type: String }) nextCursor!: string | null;
}
