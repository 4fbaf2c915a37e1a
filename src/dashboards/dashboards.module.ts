import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { DashboardsController } from './dashboards.controller';
import { DashboardsService } from './dashboards.service';
import { DashboardWrites } from './dashboard-writes';
import { DashboardCreatesRepository } from './dashboard-creates.repository';

@Module({
  imports: [CredentialsModule],
  controllers: [DashboardsController],
  providers: [DashboardsService, DashboardCreatesRepository, DashboardWrites],
})
export class DashboardsModule {}
