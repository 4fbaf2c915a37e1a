/**
 * The `source` of a pipe create body and of a pipe update body (pipes-api.md section 2.3).
 *
 * Each update shape is the Update column of the contract; the create shape of a kind extends it with
 * the fields that are fixed once the pipe exists, so a field is declared once for both bodies.
 *
 * Required on create (the contract does not say; these are the fields without which no pipe of the
 * kind can exist): kafka `brokers` and `topics`; kinesis `streamName` and `region`; postgres `host`,
 * `port`, `database`, `credentials` and a non-empty `tableMappings`; inside `credentials` and
 * `accessKey` both members; in a table mapping the schema, source table and target table; a schema
 * registry's `url`. No object storage field is required on its own: S3 and GCS pipes need `url`, Azure
 * pipes `connectionString`, `path` and `azureContainerName`, and the contract carries no storage type
 * to tell them apart, so that check is the upstream's.
 * On update every field is optional.
 *
 * Value sets the contract leaves open (`compression`, `delimiter`, the kafka offset `strategy`) take
 * any non-empty string: the upstream knows its current list and a closed list here would go stale.
 */
import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { ArrayNotEmpty, IsBoolean, IsInt, Max, Min, ValidateIf } from 'class-validator';
import {
  IsMinutePrecisionUtc,
  NestedArray,
  NestedObject,
  NonEmptyString,
  NonEmptyStringArray,
  OptionalNotNull,
} from '../../common/validation/validation-decorators';

export const SOURCE_KINDS = ['kafka', 'objectStorage', 'kinesis', 'postgres'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** The offset strategy that needs a timestamp. Other strategies are passed on as given. */
const FROM_TIMESTAMP = 'from_timestamp';

export class CredentialsDto {
  @ApiProperty({ example: 'pipe_reader' })
  @NonEmptyString()
  username!: string;

  @ApiProperty({ writeOnly: true, description: 'Secret: never returned, stored only redacted.' })
  @NonEmptyString()
  password!: string;
}

export class AccessKeyDto {
  @ApiProperty({ example: 'AKIAIOSFODNN7EXAMPLE' })
  @NonEmptyString()
  accessKeyId!: string;

  @ApiProperty({ writeOnly: true, description: 'Secret: never returned, stored only redacted.' })
  @NonEmptyString()
  secretKey!: string;
}

export class KafkaOffsetDto {
  @ApiPropertyOptional({
    example: FROM_TIMESTAMP,
    description: 'Where consumption starts; values seen: from_beginning, from_latest, from_timestamp.',
  })
  @OptionalNotNull()
  @NonEmptyString()
  strategy?: string;

  @ApiPropertyOptional({
    example: '2025-01-31T10:15Z',
    description: `UTC, minute precision. Required unless a strategy other than ${FROM_TIMESTAMP} is given.`,
  })
  @ValidateIf(
    (offset: KafkaOffsetDto, timestamp: unknown) =>
      timestamp !== undefined || offset.strategy === undefined || offset.strategy === FROM_TIMESTAMP,
  )
  @IsMinutePrecisionUtc()
  timestamp?: string;
}

export class SchemaRegistryDto {
  @ApiProperty({ example: 'https://schema-registry.example.com:8081' })
  @NonEmptyString()
  url!: string;

  @ApiPropertyOptional({ description: 'PEM certificate of the registry.' })
  @OptionalNotNull()
  @NonEmptyString()
  caCertificate?: string;

  @ApiPropertyOptional({ type: () => CredentialsDto })
  @OptionalNotNull()
  @NestedObject(() => CredentialsDto)
  credentials?: CredentialsDto;
}

export class KafkaSourceUpdateDto {
  @ApiPropertyOptional({ example: 'arn:aws:iam::123456789012:role/clickpipes-msk' })
  @OptionalNotNull()
  @NonEmptyString()
  iamRole?: string;

  @ApiPropertyOptional({ description: 'PEM certificate of the brokers.' })
  @OptionalNotNull()
  @NonEmptyString()
  caCertificate?: string;

  @ApiPropertyOptional({ type: [String] })
  @OptionalNotNull()
  @NonEmptyStringArray()
  reversePrivateEndpointIds?: string[];

  @ApiPropertyOptional({ type: () => CredentialsDto })
  @OptionalNotNull()
  @NestedObject(() => CredentialsDto)
  credentials?: CredentialsDto;
}

export class KafkaSourceDto extends KafkaSourceUpdateDto {
  @ApiProperty({ example: 'b-1.kafka.example.com:9096,b-2.kafka.example.com:9096' })
  @NonEmptyString()
  brokers!: string;

  @ApiProperty({ example: 'orders' })
  @NonEmptyString()
  topics!: string;

  @ApiPropertyOptional({ example: 'clickpipes-orders' })
  @OptionalNotNull()
  @NonEmptyString()
  consumerGroup?: string;

  @ApiPropertyOptional({ type: () => KafkaOffsetDto })
  @OptionalNotNull()
  @NestedObject(() => KafkaOffsetDto)
  offset?: KafkaOffsetDto;

  @ApiPropertyOptional({ type: () => SchemaRegistryDto })
  @OptionalNotNull()
  @NestedObject(() => SchemaRegistryDto)
  schemaRegistry?: SchemaRegistryDto;
}

export class ObjectStorageSourceUpdateDto {
  @ApiPropertyOptional({ example: 'arn:aws:iam::123456789012:role/clickpipes-s3' })
  @OptionalNotNull()
  @NonEmptyString()
  iamRole?: string;

  @ApiPropertyOptional({ description: 'Azure connection string; its account key is a secret.' })
  @OptionalNotNull()
  @NonEmptyString()
  connectionString?: string;

  @ApiPropertyOptional({ example: 'events/2025/*.json', description: 'May contain wildcards.' })
  @OptionalNotNull()
  @NonEmptyString()
  path?: string;

  @ApiPropertyOptional({ example: 'events' })
  @OptionalNotNull()
  @NonEmptyString()
  azureContainerName?: string;

  @ApiPropertyOptional({ type: () => AccessKeyDto })
  @OptionalNotNull()
  @NestedObject(() => AccessKeyDto)
  accessKey?: AccessKeyDto;
}

export class ObjectStorageSourceDto extends ObjectStorageSourceUpdateDto {
  @ApiPropertyOptional({
    example: 'https://bucket.s3.amazonaws.com/events/*.json',
    description: 'May contain wildcards.',
  })
  @OptionalNotNull()
  @NonEmptyString()
  url?: string;

  @ApiPropertyOptional({ example: ',' })
  @OptionalNotNull()
  @NonEmptyString()
  delimiter?: string;

  @ApiPropertyOptional({
    example: 'auto',
    description: 'Values seen: none, gzip, gz, brotli, br, xz, LZMA, zstd, auto.',
  })
  @OptionalNotNull()
  @NonEmptyString()
  compression?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  isContinuous?: boolean;

  @ApiPropertyOptional({ example: 'https://sqs.eu-west-1.amazonaws.com/123456789012/events' })
  @OptionalNotNull()
  @NonEmptyString()
  queueUrl?: string;
}

export class KinesisSourceUpdateDto {
  @ApiPropertyOptional({ example: 'arn:aws:iam::123456789012:role/clickpipes-kinesis' })
  @OptionalNotNull()
  @NonEmptyString()
  iamRole?: string;

  @ApiPropertyOptional({ type: () => AccessKeyDto })
  @OptionalNotNull()
  @NestedObject(() => AccessKeyDto)
  accessKey?: AccessKeyDto;
}

export class KinesisSourceDto extends KinesisSourceUpdateDto {
  @ApiProperty({ example: 'clickstream' })
  @NonEmptyString()
  streamName!: string;

  @ApiProperty({ example: 'eu-west-1' })
  @NonEmptyString()
  region!: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  useEnhancedFanOut?: boolean;

  @ApiPropertyOptional({ type: 'integer', example: 1738318500 })
  @OptionalNotNull()
  @IsInt()
  timestamp?: number;
}

/** The postgres settings an update may change. */
export class PostgresSyncSettingsDto {
  @ApiPropertyOptional({ type: 'integer', example: 60 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  syncIntervalSeconds?: number;

  @ApiPropertyOptional({ type: 'integer', example: 100000 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  pullBatchSize?: number;
}

export class PostgresSettingsDto extends PostgresSyncSettingsDto {
  @ApiPropertyOptional({ example: 'clickpipes_pub' })
  @OptionalNotNull()
  @NonEmptyString()
  publicationName?: string;

  @ApiPropertyOptional({ example: 'clickpipes_slot' })
  @OptionalNotNull()
  @NonEmptyString()
  replicationSlotName?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  allowNullableColumns?: boolean;

  @ApiPropertyOptional({ type: 'integer', example: 4 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  initialLoadParallelism?: number;

  @ApiPropertyOptional({ type: 'integer', example: 100000 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  snapshotNumRowsPerPartition?: number;

  @ApiPropertyOptional({ type: 'integer', example: 1 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  snapshotNumberOfParallelTables?: number;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  enableFailoverSlots?: boolean;
}

/** Names a table mapping; what an update sends to remove one. */
export class TableMappingRefDto {
  @ApiProperty({ example: 'public' })
  @NonEmptyString()
  sourceSchemaName!: string;

  @ApiProperty({ example: 'orders' })
  @NonEmptyString()
  sourceTable!: string;

  @ApiProperty({ example: 'public_orders' })
  @NonEmptyString()
  targetTable!: string;
}

export class TableMappingDto extends TableMappingRefDto {
  @ApiPropertyOptional({ type: [String] })
  @OptionalNotNull()
  @NonEmptyStringArray()
  excludedColumns?: string[];

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  useCustomSortingKey?: boolean;

  @ApiPropertyOptional({ type: [String] })
  @OptionalNotNull()
  @NonEmptyStringArray()
  sortingKeys?: string[];
}

export class PostgresSourceDto {
  @ApiProperty({ example: 'orders-db.example.com' })
  @NonEmptyString()
  host!: string;

  @ApiProperty({ type: 'integer', example: 5432, minimum: 1, maximum: 65535 })
  @IsInt()
  @Min(1)
  @Max(65535)
  port!: number;

  @ApiProperty({ example: 'shop' })
  @NonEmptyString()
  database!: string;

  @ApiProperty({ type: () => CredentialsDto })
  @NestedObject(() => CredentialsDto)
  credentials!: CredentialsDto;

  @ApiPropertyOptional({ type: () => PostgresSettingsDto })
  @OptionalNotNull()
  @NestedObject(() => PostgresSettingsDto)
  settings?: PostgresSettingsDto;

  @ApiProperty({ type: () => TableMappingDto, isArray: true })
  @ArrayNotEmpty()
  @NestedArray(() => TableMappingDto)
  tableMappings!: TableMappingDto[];
}

export class PostgresSourceUpdateDto extends PartialType(
  PickType(PostgresSourceDto, ['host', 'port', 'database', 'credentials']),
  { skipNullProperties: false },
) {
  @ApiPropertyOptional({ type: () => PostgresSyncSettingsDto })
  @OptionalNotNull()
  @NestedObject(() => PostgresSyncSettingsDto)
  settings?: PostgresSyncSettingsDto;

  @ApiPropertyOptional({ type: () => TableMappingDto, isArray: true })
  @OptionalNotNull()
  @NestedArray(() => TableMappingDto)
  tableMappingsToAdd?: TableMappingDto[];

  @ApiPropertyOptional({ type: () => TableMappingRefDto, isArray: true })
  @OptionalNotNull()
  @NestedArray(() => TableMappingRefDto)
  tableMappingsToRemove?: TableMappingRefDto[];
}

export class PipeSourceDto {
  @ApiPropertyOptional({ description: 'Let the upstream check sample records against the destination.' })
  @OptionalNotNull()
  @IsBoolean()
  validateSamples?: boolean;

  @ApiPropertyOptional({ type: () => KafkaSourceDto })
  @OptionalNotNull()
  @NestedObject(() => KafkaSourceDto)
  kafka?: KafkaSourceDto;

  @ApiPropertyOptional({ type: () => ObjectStorageSourceDto })
  @OptionalNotNull()
  @NestedObject(() => ObjectStorageSourceDto)
  objectStorage?: ObjectStorageSourceDto;

  @ApiPropertyOptional({ type: () => KinesisSourceDto })
  @OptionalNotNull()
  @NestedObject(() => KinesisSourceDto)
  kinesis?: KinesisSourceDto;

  @ApiPropertyOptional({ type: () => PostgresSourceDto })
  @OptionalNotNull()
  @NestedObject(() => PostgresSourceDto)
  postgres?: PostgresSourceDto;
}

export class PipeSourceUpdateDto extends PickType(PipeSourceDto, ['validateSamples']) {
  @ApiPropertyOptional({ type: () => KafkaSourceUpdateDto })
  @OptionalNotNull()
  @NestedObject(() => KafkaSourceUpdateDto)
  kafka?: KafkaSourceUpdateDto;

  @ApiPropertyOptional({ type: () => ObjectStorageSourceUpdateDto })
  @OptionalNotNull()
  @NestedObject(() => ObjectStorageSourceUpdateDto)
  objectStorage?: ObjectStorageSourceUpdateDto;

  @ApiPropertyOptional({ type: () => KinesisSourceUpdateDto })
  @OptionalNotNull()
  @NestedObject(() => KinesisSourceUpdateDto)
  kinesis?: KinesisSourceUpdateDto;

  @ApiPropertyOptional({ type: () => PostgresSourceUpdateDto })
  @OptionalNotNull()
  @NestedObject(() => PostgresSourceUpdateDto)
  postgres?: PostgresSourceUpdateDto;
}
