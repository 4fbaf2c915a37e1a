import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/auth.decorators';
import { PrismaService } from '../database/prisma.service';

export interface HealthStatus {
  status: 'ok';
}

@ApiTags('operations')
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly prisma: PrismaService) {}

  @Get('live')
  @ApiOkResponse({ description: 'The process is up.' })
  live(): HealthStatus {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOkResponse({ description: 'The database answers and every migration is applied.' })
  @ApiServiceUnavailableResponse({ description: 'Not ready to serve traffic.' })
  async ready(): Promise<HealthStatus> {
    if (!(await this.prisma.isReady())) {
      throw new ServiceUnavailableException('The database is not reachable or not migrated.');
    }
    return { status: 'ok' };
  }
}
