import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';
import { IsSafeName } from '../../common/validation/safe-text';

export class CreateTenantDto {
  @ApiProperty({
    example: 'payments-team',
    description: 'Unique team name: letters, digits, ".", "_", "-"; 1 to 64.',
  })
  @IsString()
  @Length(1, 64)
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { message: 'name may contain letters, digits, ".", "_" and "-"' })
  @IsSafeName(1, 64)
  name!: string;
}

export class TenantView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() createdAt!: Date;
}
