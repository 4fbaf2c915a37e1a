import { Injectable } from '@nestjs/common';
import type { Actor } from '../auth/principal';
import type { CredentialSecret } from '../credentials/credential-secret';
import { UpstreamCredentials, type UpstreamCredential } from '../credentials/upstream-credentials';
import { MetricsService } from '../metrics/metrics.service';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { CircuitBreakers } from './circuit-breaker';
import { UpstreamCredentialRejectedException } from './upstream-errors';
import type { UpstreamAccess } from './upstream-http';

// A call over the upstream budget waits this long for the next window before it is refused.
const MAX_QUEUE_MS = 1_000;

/**
 * Every upstream call made with a stored credential goes through here: the credential's own
 * budget (kept under the upstream's rate limit), its circuit breaker, marking it rejected when
 * the upstream refuses it, and the tenant's vault values, which the answer is scrubbed of.
 */
@Injectable()
export class UpstreamCallService {
  private readonly breakers: CircuitBreakers;

  constructor(
    private readonly credentials: UpstreamCredentials,
    private readonly rateLimits: RateLimitService,
    metrics: MetricsService,
  ) {
    this.breakers = new CircuitBreakers(5, 30_000, (key, state) => metrics.breakerChanged(key, state));
  }

  async run<S extends CredentialSecret, T>(
    credential: UpstreamCredential<S>,
    actor: Actor,
    call: (access: UpstreamAccess<S>) => Promise<T>,
  ): Promise<T> {
    const kept = this.credentials.vaultValues(credential.tenantId);
    // A matcher already built is used without waiting a turn of the event loop.
    const vault = kept instanceof Promise ? await kept : kept;
    try {
      return await this.breakers.run(
        `${credential.kind}:${credential.id}`,
        credential.kind === 'pipes' ? 'pipes API' : 'dashboards API',
        async () => {
          await this.rateLimits.consumeOrWait(
            credential.kind === 'pipes' ? 'pipesApi' : 'dashboardsApi',
            credential.id,
            MAX_QUEUE_MS,
          );
          return call({ secret: credential.secret, vault });
        },
      );
    } catch (error) {
      if (error instanceof UpstreamCredentialRejectedException) {
        await this.credentials.markRejected(credential, error.upstreamStatus, actor);
      }
      throw error;
    }
  }
}
