import { Injectable } from '@nestjs/common';
import type { Actor } from '../auth/principal';
import type { CredentialSecret } from '../credentials/credential-secret';
import { UpstreamCredentials, type UpstreamCredential } from '../credentials/upstream-credentials';
import { MetricsService } from '../metrics/metrics.service';
import type { BudgetUse } from '../rate-limit/upstream-budget';
import { UpstreamBudgets } from '../rate-limit/upstream-budgets';
import { CircuitBreakers } from './circuit-breaker';
import { UpstreamCredentialRejectedException } from './upstream-errors';
import type { UpstreamAccess } from './upstream-http';
import { ValueEchoes } from './value-echoes';

// A call over the upstream budget waits this long for room in the window before it is refused.
const MAX_QUEUE_MS = 1_000;

/**
 * Every upstream call made with a stored credential goes through here: the credential's own
 * budget (kept under the upstream's rate limit, every attempt counted, writes keeping their share
 * and each reader its own: UpstreamBudgets), its circuit breaker, marking it rejected (and naming
 * it to the caller) when the upstream refuses it, and the tenant's vault values, which the answer
 * is scrubbed of.
 */
@Injectable()
export class UpstreamCallService {
  private readonly breakers: CircuitBreakers;

  constructor(
    private readonly credentials: UpstreamCredentials,
    private readonly budgets: UpstreamBudgets,
    private readonly valueEchoes: ValueEchoes,
    metrics: MetricsService,
  ) {
    this.breakers = new CircuitBreakers(5, 30_000, (key, state) => metrics.breakerChanged(key, state));
  }

  /**
   * `use`: what the call is for, as the caller's request is (a read of a write's, such as the
   * dashboard a replace reads first, is the write's). Readers are told apart by `actor.actor`: a
   * key, a signed-in person, or `gateway` for the event streams' polls, which count as one reader.
   */
  async run<S extends CredentialSecret, T>(
    credential: UpstreamCredential<S>,
    actor: Actor,
    use: BudgetUse,
    call: (access: UpstreamAccess<S>) => Promise<T>,
  ): Promise<T> {
    const kept = this.credentials.vaultValues(credential.tenantId);
    // A matcher already built is used without waiting a turn of the event loop.
    const vault = kept instanceof Promise ? await kept : kept;
    const upstream = credential.kind === 'pipes' ? 'pipes' : 'dashboards';
    const valueEcho = this.valueEchoes.watch(credential.tenantId, actor, upstream);
    try {
      return await this.breakers.run(
        `${credential.kind}:${credential.id}`,
        credential.kind === 'pipes' ? 'pipes API' : 'dashboards API',
        async () => {
          const take = (maxWaitMs: number) =>
            this.budgets.take(upstream, credential.id, use, actor.actor, maxWaitMs);
          await take(MAX_QUEUE_MS);
          // A retry is a call the upstream counts too: it is made only if it fits the budget now.
          const admitAttempt = () =>
            take(0).then(
              () => true,
              () => false,
            );
          return call({ secret: credential.secret, vault, valueEcho, admitAttempt });
        },
      );
    } catch (error) {
      if (error instanceof UpstreamCredentialRejectedException) {
        await this.credentials.markRejected(credential, error.upstreamStatus, actor);
        throw error.naming(credential);
      }
      throw error;
    }
  }
}
