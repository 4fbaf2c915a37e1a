/**
 * Path parameters of the pipes routes. All are UUIDs (any version) by the contract; checking them here
 * also keeps a crafted id such as `../x` from changing the upstream path (DESIGN section 5, rule 3).
 */
import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

export class PipePathParamsDto {
  @ApiProperty({ format: 'uuid', description: 'Organization that owns the service.' })
  @IsUUID('all')
  organizationId!: string;

  @ApiProperty({ format: 'uuid', description: 'Service that owns, or will own, the pipe.' })
  @IsUUID('all')
  serviceId!: string;
}

export class PipeIdPathParamsDto extends PipePathParamsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  pipeId!: string;
}
