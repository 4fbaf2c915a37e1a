import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import type { SinkTransport } from './audit-sink';
import { AuditEventLines } from './audit-event-lines';
import { AuditSinksRepository } from './audit-sinks.repository';
import type { AuditSinkStateView, AuditSinkView } from './dto/audit-sink.dto';
import { SinkShipper } from './sink-shipper';
import { SyslogTransport } from './syslog-transport';
import { WebhookTransport } from './webhook-transport';

/**
 * Delivers the audit log to the configured sinks (AUDIT_SYSLOG_URL, AUDIT_WEBHOOK_URL), at least
 * once and in order per tenant, beside the database, which stays the record: writes never wait on
 * a sink. Every replica runs a shipper per sink; the one holding the sink's lease ships.
 */
@Injectable()
export class AuditSinksService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AuditSinks');
  private readonly shippers: SinkShipper[];

  constructor(
    private readonly sinks: AuditSinksRepository,
    config: ConfigService<AppConfig, true>,
    metrics: MetricsService,
  ) {
    const { syslog, webhook, ...settings } = config.get('auditSinks', { infer: true });
    const transports: SinkTransport[] = [];
    if (syslog) transports.push(new SyslogTransport(syslog.url, syslog.ca, settings.timeoutMs));
    if (webhook) transports.push(new WebhookTransport(webhook.url, webhook.secret, settings.timeoutMs));
    const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    const lines = new AuditEventLines(this.sinks, settings.batchSize * (transports.length + 1));
    this.shippers = transports.map(
      (transport) => new SinkShipper(transport, this.sinks, lines, settings, holder, this.logger),
    );
    metrics.watchAuditSinks(() => this.list());
  }

  onApplicationBootstrap(): void {
    for (const shipper of this.shippers) shipper.start();
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.shippers.map((shipper) => shipper.stop()));
  }

  /** Each configured sink's state, as the database has it: the same whichever replica answers. */
  list(): Promise<AuditSinkView[]> {
    return Promise.all(
      this.shippers.map(async ({ transport }) => {
        const state = await this.sinks.state(transport.kind);
        const oldest = state.oldestUndeliveredAt?.getTime();
        return {
          kind: transport.kind,
          address: transport.address,
          eventsBehind: state.eventsBehind,
          secondsBehind: oldest === undefined ? 0 : Math.max(0, Math.round((Date.now() - oldest) / 1000)),
          lastDeliveryAt: state.lastDeliveryAt,
          lastError: state.lastError,
          lastErrorAt: state.lastErrorAt,
          shippedBy: state.leaseHolder,
        };
      }),
    );
  }

  /** Each sink as a tenant's auditor may see it: lag and failing, not its address or errors. */
  async states(): Promise<AuditSinkStateView[]> {
    return (await this.list()).map((sink) => ({
      kind: sink.kind,
      secondsBehind: sink.secondsBehind,
      lastDeliveryAt: sink.lastDeliveryAt,
      lastErrorAt: sink.lastErrorAt,
      failing:
        sink.lastErrorAt !== null &&
        (sink.lastDeliveryAt === null || sink.lastErrorAt.getTime() > sink.lastDeliveryAt.getTime()),
    }));
  }
}
