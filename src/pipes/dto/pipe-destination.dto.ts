/**
 * The `destination` of a pipe create body and of a pipe update body (pipes-api.md section 2.4).
 *
 * Required on create (the contract does not say): `database` only. Streaming and object storage
 * pipes also need `table` and `columns`, but postgres (CDC) pipes name their target tables in
 * `source.postgres.tableMappings` and the upstream derives the columns from the source schema, so
 * which of these a pipe needs is left to the upstream. `columns`, when given, is not empty.
 * An update may only send `columns`.
 */
import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { ArrayNotEmpty, IsBoolean } from 'class-validator';
import {
  NestedArray,
  NestedObject,
  NonEmptyString,
  NonEmptyStringArray,
  OptionalNotNull,
} from '../../common/validation/validation-decorators';

export class ColumnDto {
  @ApiProperty({ example: 'order_id' })
  @NonEmptyString()
  name!: string;

  @ApiProperty({ example: 'UInt64' })
  @NonEmptyString()
  type!: string;
}

export class TableEngineDto {
  @ApiPropertyOptional({ example: 'updated_at' })
  @OptionalNotNull()
  @NonEmptyString()
  versionColumnId?: string;

  @ApiPropertyOptional({ type: [String] })
  @OptionalNotNull()
  @NonEmptyStringArray()
  columnIds?: string[];
}

export class TableDefinitionDto {
  @ApiPropertyOptional({ type: () => TableEngineDto })
  @OptionalNotNull()
  @NestedObject(() => TableEngineDto)
  engine?: TableEngineDto;

  @ApiPropertyOptional({ type: [String], example: ['order_id'] })
  @OptionalNotNull()
  @NonEmptyStringArray()
  sortingKey?: string[];

  @ApiPropertyOptional({ example: 'toYYYYMM(created_at)' })
  @OptionalNotNull()
  @NonEmptyString()
  partitionBy?: string;

  @ApiPropertyOptional({ example: 'order_id' })
  @OptionalNotNull()
  @NonEmptyString()
  primaryKey?: string;
}

export class DestinationDto {
  @ApiProperty({ example: 'default' })
  @NonEmptyString()
  database!: string;

  @ApiPropertyOptional({ example: 'orders' })
  @OptionalNotNull()
  @NonEmptyString()
  table?: string;

  @ApiPropertyOptional({ description: 'Let the upstream create and own the table.' })
  @OptionalNotNull()
  @IsBoolean()
  managedTable?: boolean;

  @ApiPropertyOptional({ type: () => TableDefinitionDto })
  @OptionalNotNull()
  @NestedObject(() => TableDefinitionDto)
  tableDefinition?: TableDefinitionDto;

  @ApiPropertyOptional({ type: () => ColumnDto, isArray: true })
  @OptionalNotNull()
  @ArrayNotEmpty()
  @NestedArray(() => ColumnDto)
  columns?: ColumnDto[];

  @ApiPropertyOptional({ type: [String], example: ['default'] })
  @OptionalNotNull()
  @NonEmptyStringArray()
  roles?: string[];
}

export class DestinationUpdateDto extends PickType(DestinationDto, ['columns']) {}
