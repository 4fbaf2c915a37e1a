import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { Public } from '../auth/auth.decorators';
import { PrismaService } from '../database/prisma.service';
import { ApiProblem, ApiUrlProblems } from '../openapi/api-problems';
import { Drain } from './drain';

const HEALTH_STATUS: SchemaObject = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', enum: ['ok'] } },
};

export interface HealthStatus {
  status: 'ok';
}

@ApiTags('operations')
@Public()
@ApiUrlProblems()
@Controller('health')
export class HealthController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly drain: Drain,
  ) {}

  @Get('live')
  @ApiOperation({
    summary: 'Liveness probe',
    description: 'Answers while the process runs; asks nothing of the database. No authentication.',
  })
  @ApiOkResponse({ description: 'The process is up.', schema: HEALTH_STATUS })
  live(): HealthStatus {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({
    summary: 'Readiness probe',
    description:
      'Ready when every migration was applied at start and the database answers now, until the process is ' +
      'told to stop (SIGTERM): from then on 503 while it drains (SHUTDOWN_DRAIN_MS), so that balancers send ' +
      'requests elsewhere before it closes. No authentication.',
  })
  @ApiOkResponse({
    description: 'The database answers and every migration is applied.',
    schema: HEALTH_STATUS,
  })
  @ApiProblem(
    503,
    '`unavailable`: the database is not reachable or not migrated, or the process is stopping; not ready ' +
      'to serve traffic.',
  )
  async ready(): Promise<HealthStatus> {
    if (this.drain.draining) throw new ServiceUnavailableException('The gateway is stopping.');
    if (!(await this.prisma.isReady())) {
      throw new ServiceUnavailableException('The database is not reachable or not migrated.');
    }
    return { status: 'ok' };
  }
}
