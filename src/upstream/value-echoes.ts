import { Injectable, Logger } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import type { Actor } from '../auth/principal';
import { MetricsService } from '../metrics/metrics.service';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import type { UpstreamName } from './upstream-errors';
import type { ValueEchoWatch } from './upstream-http';

/**
 * Makes guessing a vault secret through redaction visible and expensive. An answer scrubbed of a
 * vault value the caller's own request carried outside a secret place is audited
 * (`vault.value-echo`, the request's paths, never the value) and counted; once a caller (a key, or
 * a person a key acts for, or a signed-in person) has had VAULT_VALUE_ECHO_LIMIT such answers in
 * its window, its requests that send a body upstream are refused, whatever they carry, so the
 * refusal itself confirms nothing.
 */
@Injectable()
export class ValueEchoes {
  private readonly logger = new Logger(ValueEchoes.name);

  constructor(
    private readonly audit: AuditService,
    private readonly rateLimits: RateLimitService,
    private readonly metrics: MetricsService,
  ) {}

  watch(tenantId: string, actor: Actor, upstream: UpstreamName): ValueEchoWatch {
    const caller = `${tenantId}:${callerOf(actor)}`;
    return {
      admit: () => this.rateLimits.refuseWhenSpent('valueEchoes', caller),
      echoed: async (paths) => {
        this.metrics.valueEchoed(upstream);
        await this.rateLimits.count('valueEchoes', caller);
        try {
          await this.audit.record(actor, {
            tenantId,
            action: 'vault.value-echo',
            outcome: 'succeeded',
            details: { upstream, paths },
          });
        } catch (error) {
          // The answer was scrubbed all the same, and the count above still limits the caller.
          this.logger.error(
            { tenantId, actor: actor.actor, requestId: actor.requestId, paths, err: error },
            'vault value echo could not be audited',
          );
        }
      },
    };
  }
}

function callerOf(actor: Actor): string {
  if (actor.keyId === null) return actor.actor;
  return actor.onBehalfOf === null ? `key:${actor.keyId}` : `key:${actor.keyId}/${actor.onBehalfOf}`;
}
