import { ApiProperty } from '@nestjs/swagger';
import { GroupName } from './group-mapping.dto';

export class AssignGroupDto {
  @GroupName('A group belongs to one tenant at most.')
  group!: string;
}

export class TenantGroupView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'payments-engineers' }) group!: string;
  @ApiProperty() createdAt!: Date;
}

export class TenantGroupListView {
  @ApiProperty({ type: [TenantGroupView] }) items!: TenantGroupView[];
  @ApiProperty({ nullable: true, type: String }) nextCursor!: string | null;
}
