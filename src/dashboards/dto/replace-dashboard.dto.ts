/**
 * Body of `PUT /v1/dashboards/{id}`: the whole dashboard (dashboards-api.md section 2).
 *
 * A PUT replaces the dashboard, so `name`, `tiles` and `tags` are all required (the contract does not
 * say which are): a caller that leaves one out would otherwise depend on upstream behaviour the
 * contract does not show. In a tile every field but `id` and `asRatio` is required; in a series
 * `type`, `dataSource` and `aggFn` are.
 *
 * Bounds follow the public service: at most 500 tiles, at most 50 tags of at most 32 characters, a
 * name of at most 1024 characters. Positions are finite and not negative, sizes positive.
 *
 * `type`, `dataSource` and `aggFn` take any lowercase keyword (letters, digits, `_`, at most 64) rather
 * than the few values the contract lists: it only lists values seen, the upstream accepts more
 * (`sum`, `p99`, `count_distinct`, `table`, `search`, ...) and validates them itself, and refusing
 * values it has not listed would break dashboards that already use them. The keyword form still
 * keeps free text out.
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsNumber,
  IsPositive,
  IsString,
  Length,
  Matches,
  MaxLength,
  Min,
} from 'class-validator';
import { NestedArray, OptionalNotNull } from '../../common/validation/validation-decorators';

const SERIES_KEYWORD = /^[a-z0-9_]{1,64}$/;
const SERIES_KEYWORD_MESSAGE = 'must be 1 to 64 lowercase letters, digits or underscores';
const FINITE = { allowNaN: false, allowInfinity: false };

export class SeriesDto {
  @ApiProperty({ example: 'time', pattern: SERIES_KEYWORD.source, description: 'Values seen: time, number.' })
  @Matches(SERIES_KEYWORD, { message: SERIES_KEYWORD_MESSAGE })
  type!: string;

  @ApiProperty({
    example: 'events',
    pattern: SERIES_KEYWORD.source,
    description: 'Values seen: events, metrics.',
  })
  @Matches(SERIES_KEYWORD, { message: SERIES_KEYWORD_MESSAGE })
  dataSource!: string;

  @ApiProperty({ example: 'count', pattern: SERIES_KEYWORD.source, description: 'Values seen: count, avg.' })
  @Matches(SERIES_KEYWORD, { message: SERIES_KEYWORD_MESSAGE })
  aggFn!: string;

  @ApiPropertyOptional({ example: 'duration', description: 'Metric field, used with avg.' })
  @OptionalNotNull()
  @IsString()
  field?: string;

  @ApiPropertyOptional({
    example: 'level:error',
    maxLength: 4096,
    description: 'Filter of the form field:value.',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(4096)
  where?: string;

  @ApiPropertyOptional({ type: [String], example: [] })
  @OptionalNotNull()
  @IsArray()
  @IsString({ each: true })
  groupBy?: string[];
}

export class TileDto {
  @ApiPropertyOptional({
    example: '65a1b2c3d4e5f60718293a4b',
    description: 'Keeps an existing tile; a tile sent without one gets a new id.',
  })
  @OptionalNotNull()
  @IsString()
  @Length(1, 64)
  id?: string;

  @ApiProperty({ example: 'Errors per minute' })
  @IsString()
  name!: string;

  @ApiProperty({ minimum: 0, example: 0 })
  @IsNumber(FINITE)
  @Min(0)
  x!: number;

  @ApiProperty({ minimum: 0, example: 0 })
  @IsNumber(FINITE)
  @Min(0)
  y!: number;

  @ApiProperty({ exclusiveMinimum: true, minimum: 0, example: 6 })
  @IsNumber(FINITE)
  @IsPositive()
  w!: number;

  @ApiProperty({ exclusiveMinimum: true, minimum: 0, example: 3 })
  @IsNumber(FINITE)
  @IsPositive()
  h!: number;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  asRatio?: boolean;

  @ApiProperty({ type: () => SeriesDto, isArray: true })
  @NestedArray(() => SeriesDto)
  series!: SeriesDto[];
}

export class ReplaceDashboardDto {
  @ApiProperty({ example: 'Checkout service', maxLength: 1024 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  name!: string;

  @ApiProperty({ type: () => TileDto, isArray: true, maxItems: 500 })
  @ArrayMaxSize(500)
  @NestedArray(() => TileDto)
  tiles!: TileDto[];

  @ApiProperty({ type: [String], maxItems: 50, example: ['checkout'] })
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(32, { each: true })
  tags!: string[];
}
