/**
 * Body of `PATCH /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}`: only the
 * fields of the Update column of pipes-api.md section 2, every one optional. A field outside that
 * column (`scaling`, `destination.table`, `source.kafka.brokers`, ...) is not declared here, so the
 * ValidationPipe rejects it by its path.
 *
 * The create rules are not applied: an update may carry only some of the columns or mappings, and
 * which kind the pipe has is the upstream's to check.
 */
import { ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { CreatePipeDto, FieldMappingDto } from './create-pipe.dto';
import { DestinationUpdateDto } from './pipe-destination.dto';
import { PipeSourceUpdateDto } from './pipe-source.dto';
import { NestedArray, NestedObject, OptionalNotNull } from '../../common/validation/validation-decorators';

export class UpdatePipeDto extends PartialType(PickType(CreatePipeDto, ['name', 'settings']), {
  skipNullProperties: false,
}) {
  @ApiPropertyOptional({ type: () => PipeSourceUpdateDto })
  @OptionalNotNull()
  @NestedObject(() => PipeSourceUpdateDto)
  source?: PipeSourceUpdateDto;

  @ApiPropertyOptional({ type: () => DestinationUpdateDto, description: 'Only `columns` may change.' })
  @OptionalNotNull()
  @NestedObject(() => DestinationUpdateDto)
  destination?: DestinationUpdateDto;

  @ApiPropertyOptional({ type: () => FieldMappingDto, isArray: true })
  @OptionalNotNull()
  @NestedArray(() => FieldMappingDto)
  fieldMappings?: FieldMappingDto[];
}
