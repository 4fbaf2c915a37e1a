import { ApiProperty } from '@nestjs/swagger';
import { IsSafeName } from '../../common/validation/safe-text';

export class CreateTenantDto {
  @ApiProperty({
    example: 'payments-team',
    description: 'Unique team name: letters, digits, ".", "_", "-"; 1 to 64.',
  })
  @IsSafeName(1, 64, {
    pattern: /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
    message: 'must start with a letter or digit and hold only letters, digits, ".", "_" and "-"',
  })
  name!: string;
}

export class TenantView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() createdAt!: Date;
}
