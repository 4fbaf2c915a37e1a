import { Injectable } from '@nestjs/common';
import type { Actor } from '../auth/principal';
import { validationProblem } from '../common/problem/validation';
import { CredentialStore } from '../credentials/credential-store';
import type { CredentialView, RotateCredentialDto } from '../credentials/dto/credential.dto';
import { SecretUsesRepository, type SecretUseView } from './references/secret-uses.repository';
import { PropagationOutcomeView, SecretPropagation } from './secret-propagation';

/** A rotated credential, with what the propagation did to each pipe when it was asked for. */
export type RotatedCredential = CredentialView & { propagation?: PropagationOutcomeView[] };

/** The vault's rules beyond the store's: rotation with propagation, and where a secret is used. */
@Injectable()
export class VaultService {
  constructor(
    private readonly store: CredentialStore,
    private readonly uses: SecretUsesRepository,
    private readonly propagation: SecretPropagation,
  ) {}

  /** With `propagate`, a vault secret's new value is then sent to each pipe that uses it. */
  async rotate(
    tenantId: string,
    id: string,
    input: RotateCredentialDto,
    propagate: boolean,
    actor: Actor,
  ): Promise<RotatedCredential> {
    if (propagate && (await this.store.get(tenantId, id)).kind !== 'secret') {
      throw validationProblem([
        { path: 'propagate', message: 'applies to vault secrets (kind secret) only' },
      ]);
    }
    const rotated = await this.store.rotate(tenantId, id, input, actor);
    if (!propagate) return rotated;
    return { ...rotated, propagation: await this.propagation.propagate(tenantId, id, actor) };
  }

  /** The pipes that use a vault secret, and where; 404 when the tenant has no such credential. */
  async usage(tenantId: string, credentialId: string): Promise<SecretUseView[]> {
    await this.store.assertExists(tenantId, credentialId);
    return this.uses.list(tenantId, credentialId);
  }
}
