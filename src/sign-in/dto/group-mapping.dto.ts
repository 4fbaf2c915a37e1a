import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ROLES, type Role } from '../../auth/roles';
import { IsSafeName } from '../../common/validation/safe-text';
import { IsSetOf } from '../../common/validation/validation-decorators';

/** A group exactly as the identity provider writes it; `more` says what holds for it in the body. */
export const GroupName = (more: string): PropertyDecorator =>
  applyDecorators(
    ApiProperty({
      example: 'payments-engineers',
      description:
        'A group exactly as the identity provider writes it in the groups claim (OIDC_GROUPS_CLAIM); 1 to 256 ' +
        `printable characters. ${more}`,
    }),
    IsSafeName(1, 256),
  );

export class CreateGroupMappingDto {
  @GroupName(
    'One mapping per group and tenant; a tenant admin maps only groups the platform assigned to the tenant.',
  )
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
