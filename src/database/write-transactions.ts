import { Injectable } from '@nestjs/common';
import { WaitTimeoutError } from '../common/batcher';
import { KeyedLimiter } from '../common/limiter';
import { databaseUnavailable } from './database-errors';
import { PrismaService, PrismaTx } from './prisma.service';

/**
 * A transaction that appends to a tenant's audit chain waits for the chain row at its append,
 * holding a pooled connection meanwhile: a burst of one tenant's writes would take every
 * connection, and every other tenant's writes would wait for one. So this process runs one such
 * transaction per tenant at a time (they take the row in turn anyway); the others wait here,
 * holding nothing.
 */
const IN_FLIGHT_PER_TENANT = 1;
// As long as a request may wait for a pooled connection (database-connection.ts): the same 503 after it.
const MAX_WAIT_MS = 5_000;

/**
 * Opens the transactions that write a tenant's change together with its audit events
 * (AuditService.append(tx, …) inside `work`), so that both commit or neither does. Services open
 * them here and nowhere else.
 */
@Injectable()
export class WriteTransactions {
  private readonly tenants = new KeyedLimiter<string>(IN_FLIGHT_PER_TENANT, MAX_WAIT_MS);

  constructor(private readonly prisma: PrismaService) {}

  /**
   * Runs `work` in a transaction, after the tenant's other such transactions in this process; 503
   * when it waited for them as long as a request may wait for a connection.
   */
  async run<T>(
    tenantId: string,
    work: (tx: PrismaTx) => Promise<T>,
    options?: { timeout?: number },
  ): Promise<T> {
    try {
      return await this.tenants.run(tenantId, () => this.prisma.$transaction(work, options));
    } catch (error) {
      throw error instanceof WaitTimeoutError ? databaseUnavailable() : error;
    }
  }
}
