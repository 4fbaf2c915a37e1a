import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentActor, CurrentPrincipal, RequireRole } from '../auth/auth.decorators';
import type { Actor, TenantPrincipal } from '../auth/principal';
import { ApiJsonBody, ApiProblem } from '../openapi/api-problems';
import { AuditReviewsService } from './audit-reviews.service';
import { AuditReviewStatusView, AuditReviewView, RecordAuditReviewDto } from './dto/audit-review.dto';

/** An auditor's sign-off of the tenant's audit log, itself recorded in the log. */
@ApiTags('audit')
@Controller('v1/audit/reviews')
@RequireRole('auditor')
export class AuditReviewsController {
  constructor(private readonly reviews: AuditReviewsService) {}

  @Post()
  @ApiOperation({
    summary: 'Sign off the audit log as reviewed',
    description:
      'Appends an `audit.review` event naming the range reviewed (from the event after the previous review, or ' +
      'the first, through `throughSeq`), the public digest of the event at `throughSeq`, the reviewer (the ' +
      "event's actor) and the note. Ranges never overlap: one review at a time per tenant.",
  })
  @ApiJsonBody()
  @ApiCreatedResponse({ type: AuditReviewView, description: 'The review as recorded.' })
  @ApiProblem(
    409,
    '`range-already-reviewed`: throughSeq is not after the previous review; the detail names it and the seqs ' +
      'that may be reviewed.',
  )
  @ApiProblem(422, '`review-beyond-head`: throughSeq is beyond the newest event of the log.')
  record(
    @CurrentPrincipal() principal: TenantPrincipal,
    @CurrentActor() actor: Actor,
    @Body() body: RecordAuditReviewDto,
  ): Promise<AuditReviewView> {
    return this.reviews.record(principal.tenantId, body, actor);
  }

  @Get('latest')
  @ApiOperation({
    summary: 'Where review of the audit log stands',
    description:
      'The latest review (through which event, by whom, when, with what note), the newest event, and how many ' +
      'events came after the reviewed range: what is new since the last sign-off.',
  })
  @ApiOkResponse({ type: AuditReviewStatusView })
  latest(@CurrentPrincipal() principal: TenantPrincipal): Promise<AuditReviewStatusView> {
    return this.reviews.status(principal.tenantId);
  }
}
