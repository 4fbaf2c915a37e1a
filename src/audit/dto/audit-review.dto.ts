import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsSafeName } from '../../common/validation/safe-text';
import { IsWholeNumber } from '../../common/validation/validation-decorators';

export const MAX_REVIEW_NOTE = 1_000;

/** An auditor's sign-off: every event up to `throughSeq` not yet reviewed. */
export class RecordAuditReviewDto {
  @ApiProperty({
    minimum: 1,
    example: 1042,
    description:
      "The newest event reviewed: at most the chain head, after the previous review's throughSeq. The review " +
      'covers every event from the one after the previous review (or the first) through it.',
  })
  @IsWholeNumber(1, 2 ** 31 - 1)
  throughSeq!: number;

  @ApiPropertyOptional({
    maxLength: MAX_REVIEW_NOTE,
    example: 'Monthly access review: two keys revoked, nothing unexplained.',
    description: `1 to ${MAX_REVIEW_NOTE} printable characters on one line, no secret; kept in the log.`,
  })
  @IsOptional()
  @IsSafeName(1, MAX_REVIEW_NOTE)
  note?: string;
}

export class AuditReviewerView {
  @ApiProperty({ example: 'user:dana@example.com', description: 'As the event records it.' }) actor!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'dana@example.com',
    description: "The actor's name: a key's name, a person's verified address; null when none is known.",
  })
  name!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'X-On-Behalf-Of of the request.' })
  onBehalfOf!: string | null;
}

export class AuditReviewView {
  @ApiProperty({ description: 'The seq of the `audit.review` event that records the review.' }) seq!: number;
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ description: 'The first event the review covers.' }) fromSeq!: number;
  @ApiProperty({ description: 'The last event the review covers.' }) throughSeq!: number;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'The public digest of the event at throughSeq when the review was made: the review vouches for the ' +
      'chain as it stood up to it.',
  })
  throughDigest!: string | null;
  @ApiProperty({ type: AuditReviewerView }) reviewer!: AuditReviewerView;
  @ApiProperty({ nullable: true, type: String }) note!: string | null;
}

/** Where review of the log stands: the newest sign-off and what came after it. */
export class AuditReviewStatusView {
  @ApiProperty({ nullable: true, type: AuditReviewView, description: 'null before the first review.' })
  latest!: AuditReviewView | null;
  @ApiProperty({ description: 'The seq of the newest event (0 for an empty log).' }) headSeq!: number;
  @ApiProperty({
    description:
      'Events after the latest review (all, before the first) not yet reviewed; review events themselves ' +
      'are not counted.',
  })
  unreviewedEvents!: number;
}
