/**
 * Body of `POST /v1/organizations/{organizationId}/services/{serviceId}/pipes`, the create body of
 * pipes-api.md section 4 with the shapes of section 2.
 *
 * Required (the contract does not say): `name`, `source`, `destination` and `fieldMappings`, so a
 * caller states the whole pipe; `fieldMappings` may be empty because postgres (CDC) pipes map whole
 * tables through `source.postgres.tableMappings` instead. `scaling` and `settings` are optional and
 * left to the upstream's defaults. Required fields inside `source` and `destination` are
 * listed in their files.
 *
 * Rules across fields (DESIGN section 3): `source` holds exactly one kind, and every destination
 * column is mapped by some field mapping.
 *
 * Bounds: `scaling` follows the limits of the public service (replicas 1-40, concurrency 0-34,
 * replicaCpuMillicores 125-2000, replicaMemoryGb 0.5-8). The contract gives no ranges for `settings`;
 * its integers are counts, sizes and intervals, so only negatives are refused here.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsNumber, Max, Min } from 'class-validator';
import { DestinationDto } from './pipe-destination.dto';
import { HasExactlyOneSourceKind, MapsEveryDestinationColumn } from './pipe-rules';
import { PipeSourceDto } from './pipe-source.dto';
import {
  NestedArray,
  NestedObject,
  NonEmptyString,
  OptionalNotNull,
} from '../../common/validation/validation-decorators';

export class FieldMappingDto {
  @ApiProperty({ example: 'orderId' })
  @NonEmptyString()
  sourceField!: string;

  @ApiProperty({ example: 'order_id' })
  @NonEmptyString()
  destinationField!: string;
}

export class ScalingDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 40, example: 2 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(40)
  replicas?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 34, example: 1 })
  @OptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(34)
  concurrency?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 125, maximum: 2000, example: 500 })
  @OptionalNotNull()
  @IsInt()
  @Min(125)
  @Max(2000)
  replicaCpuMillicores?: number;

  @ApiPropertyOptional({ minimum: 0.5, maximum: 8, example: 2 })
  @OptionalNotNull()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.5)
  @Max(8)
  replicaMemoryGb?: number;
}

/** An integer advanced setting: optional, never negative. */
function OptionalSettingInteger(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 0 }),
    OptionalNotNull(),
    IsInt(),
    Min(0),
  );
}

/** The advanced settings (section 2.6); the same object in create, update and the settings read. */
export class PipeSettingsDto {
  @OptionalSettingInteger()
  streaming_max_insert_wait_ms?: number;

  @OptionalSettingInteger()
  object_storage_concurrency?: number;

  @OptionalSettingInteger()
  object_storage_polling_interval_ms?: number;

  @OptionalSettingInteger()
  object_storage_max_insert_bytes?: number;

  @OptionalSettingInteger()
  object_storage_max_file_count?: number;

  @OptionalSettingInteger()
  engine_max_threads?: number;

  @OptionalSettingInteger()
  engine_max_insert_threads?: number;

  @OptionalSettingInteger()
  engine_min_insert_block_size_bytes?: number;

  @OptionalSettingInteger()
  engine_max_download_threads?: number;

  @OptionalSettingInteger()
  engine_parallel_distributed_insert_select?: number;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  object_storage_use_cluster_function?: boolean;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  engine_parallel_view_processing?: boolean;
}

export class CreatePipeDto {
  @ApiProperty({ example: 'orders from kafka' })
  @NonEmptyString()
  name!: string;

  @ApiProperty({
    type: () => PipeSourceDto,
    description: 'Exactly one of kafka, objectStorage, kinesis, postgres.',
  })
  @NestedObject(() => PipeSourceDto)
  @HasExactlyOneSourceKind()
  source!: PipeSourceDto;

  @ApiProperty({ type: () => DestinationDto })
  @NestedObject(() => DestinationDto)
  destination!: DestinationDto;

  @ApiProperty({
    type: () => FieldMappingDto,
    isArray: true,
    description: 'Must map every destination column.',
  })
  @NestedArray(() => FieldMappingDto)
  @MapsEveryDestinationColumn()
  fieldMappings!: FieldMappingDto[];

  @ApiPropertyOptional({ type: () => ScalingDto })
  @OptionalNotNull()
  @NestedObject(() => ScalingDto)
  scaling?: ScalingDto;

  @ApiPropertyOptional({ type: () => PipeSettingsDto })
  @OptionalNotNull()
  @NestedObject(() => PipeSettingsDto)
  settings?: PipeSettingsDto;
}
