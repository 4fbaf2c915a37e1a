/**
 * Path and query parameters of the dashboards routes. The id is a plain identifier (DESIGN section 4)
 * so it can never add a segment, a dot-segment or an encoded slash to the upstream path; the
 * upstream's own ids (24 hex characters) are one case of it.
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID, Matches } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/validation-decorators';

const DASHBOARD_ID = /^[A-Za-z0-9_-]{1,64}$/;

export class DashboardIdParamDto {
  @ApiProperty({ example: '65a1b2c3d4e5f60718293a4b', pattern: DASHBOARD_ID.source })
  @Matches(DASHBOARD_ID, { message: 'must be 1 to 64 letters, digits, "-" or "_"' })
  id!: string;
}

export class DashboardQueryDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: "Which of the tenant's dashboards credentials to use; the default one when left out.",
  })
  @OptionalNotNull()
  @IsUUID('all')
  credentialId?: string;
}
