import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACTOR_FORMS } from '../../auth/actors';
import { IsOptional } from 'class-validator';
import { IsDateTime, IsOneOf, IsText, IsUuid } from '../../common/validation/validation-decorators';
import { PageQueryDto } from '../../common/pagination';

export const PIPE_SPEC_OUTCOMES = ['pending', 'succeeded', 'failed', 'unknown'] as const;
export type PipeSpecOutcome = (typeof PIPE_SPEC_OUTCOMES)[number];

export class PipeSpecHistoryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Submitted at or after this instant.' })
  @IsOptional()
  @IsDateTime()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Submitted before this instant (exclusive).' })
  @IsOptional()
  @IsDateTime()
  to?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUuid()
  organizationId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUuid()
  serviceId?: string;

  @ApiPropertyOptional({ enum: PIPE_SPEC_OUTCOMES })
  @IsOptional()
  @IsOneOf(PIPE_SPEC_OUTCOMES)
  outcome?: PipeSpecOutcome;

  @ApiPropertyOptional({
    description:
      'The submitting identity exactly as recorded (`key:<id>`, `user:<email>`, `user-sub:<sub>`), or the on-behalf-of person.',
  })
  @IsOptional()
  @IsText(0, 200)
  actor?: string;
}

export class PipeSpecRecordView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: `Who submitted it: ${ACTOR_FORMS}.` }) actor!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) onBehalfOf!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'uuid' }) keyId!: string | null;
  @ApiProperty({ format: 'uuid' }) organizationId!: string;
  @ApiProperty({ format: 'uuid' }) serviceId!: string;
  @ApiProperty({
    description:
      'The create body as submitted: every inline secret replaced by "[redacted]", references to vault secrets ' +
      '({"$secret": "<name or id>"}) kept as they were.',
  })
  spec!: unknown;
  @ApiProperty({ description: 'SHA-256 of the canonical JSON of the redacted spec.' }) specHash!: string;
  @ApiProperty({ enum: PIPE_SPEC_OUTCOMES }) outcome!: PipeSpecOutcome;
  @ApiPropertyOptional({ nullable: true, type: String }) pipeId!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) upstreamRequestId!: string | null;
  @ApiPropertyOptional({ nullable: true, type: Number }) upstreamStatus!: number | null;
  @ApiPropertyOptional({ nullable: true, description: 'The problem the caller received (redacted).' })
  error!: unknown;
  @ApiProperty() requestId!: string;
  @ApiProperty() createdAt!: Date;
  @ApiPropertyOptional({ nullable: true, type: Date }) completedAt!: Date | null;
  @ApiPropertyOptional({
    nullable: true,
    type: Date,
    description: 'When the pipe was deleted through the gateway; the spec is kept for review.',
  })
  deletedAt!: Date | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'The history entry this spec was submitted again from.',
  })
  resubmittedFrom!: string | null;
}

export class PipeSpecHistoryPageView {
  @ApiProperty({ type: [PipeSpecRecordView] }) items!: PipeSpecRecordView[];
  @ApiProperty({ nullable: true, type: String }) nextCursor!: string | null;
}

export class ResubmitPipeSpecDto {
  @ApiPropertyOptional({
    description: 'A name for the new pipe; the recorded one when left out.',
    maxLength: 255,
  })
  @IsOptional()
  @IsText(1, 255)
  name?: string;
}
