import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/auth.decorators';
import { METRICS_CONTENT_TYPES, preferredMetricsFormat } from '../metrics/metrics-format';
import { MetricsService } from '../metrics/metrics.service';
import { ApiUrlProblems } from '../openapi/api-problems';

@ApiTags('operations')
@Public()
@ApiUrlProblems()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @ApiOperation({
    summary: 'Prometheus metrics',
    description:
      'Request counts and durations by route and status, upstream calls, circuits, pools. No authentication: ' +
      'keep it on an internal network. In the OpenMetrics text format when `Accept` prefers it (Prometheus ' +
      'asks so), with the latency buckets naming a trace each (exemplars) while the gateway exports traces; ' +
      'in the Prometheus text format otherwise.',
  })
  @ApiProduces('text/plain', 'application/openmetrics-text')
  @ApiOkResponse({
    description: 'Prometheus text format, or OpenMetrics.',
    content: {
      'text/plain': { schema: { type: 'string' } },
      'application/openmetrics-text': { schema: { type: 'string' } },
    },
  })
  render(
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const format = preferredMetricsFormat(accept);
    void reply.header('content-type', METRICS_CONTENT_TYPES[format]).header('vary', 'Accept');
    return this.metrics.render(format);
  }
}
