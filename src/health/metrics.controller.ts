import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/auth.decorators';
import { MetricsService } from '../metrics/metrics.service';
import { ApiUrlProblems } from '../openapi/api-problems';

@ApiTags('operations')
@Public()
@ApiUrlProblems()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({
    summary: 'Prometheus metrics',
    description:
      'Request counts and durations by route and status, upstream calls, circuits, pools. No authentication: ' +
      'keep it on an internal network.',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description: 'Prometheus text format.',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  render(): Promise<string> {
    return this.metrics.render();
  }
}
