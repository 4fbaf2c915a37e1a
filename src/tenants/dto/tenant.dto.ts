import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { PageQueryDto } from '../../common/pagination';
import { IsSafeName } from '../../common/validation/safe-text';
import { IsText } from '../../common/validation/validation-decorators';

const TENANT_NAME_LENGTH = 64;

export class CreateTenantDto {
  @ApiProperty({
    example: 'payments-team',
    description: 'Unique team name: letters, digits, ".", "_", "-"; 1 to 64.',
  })
  @IsSafeName(1, TENANT_NAME_LENGTH, {
    pattern: /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
    message: 'must start with a letter or digit and hold only letters, digits, ".", "_" and "-"',
  })
  name!: string;
}

export class TenantListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ example: 'payments-team', description: 'Only the tenant with exactly this name.' })
  @IsOptional()
  @IsText(1, TENANT_NAME_LENGTH)
  name?: string;
}

export class TenantView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() createdAt!: Date;
}

export class TenantListView {
  @ApiProperty({ type: [TenantView] }) items!: TenantView[];
  @ApiProperty({ nullable: true, type: String }) nextCursor!: string | null;
}
