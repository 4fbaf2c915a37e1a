import { Injectable } from '@nestjs/common';
import type { Actor } from '../auth/principal';
import { ProblemException } from '../common/problem/problem';
import { validationProblem } from '../common/problem/validation';
import { CredentialStore } from '../credentials/credential-store';
import type { CredentialView, RotateCredentialDto } from '../credentials/dto/credential.dto';
import { PropagationOutcomeView, SecretPropagation } from './secret-propagation';
import { SecretUsers, type NamedSecretUse, type SecretUser } from './secret-users';

/** A rotated credential, with what the propagation did to each pipe when it was asked for. */
export type RotatedCredential = CredentialView & { propagation?: PropagationOutcomeView[] };

// Pipes a refusal's detail names; the problem's `pipes` lists them all.
const PIPES_NAMED = 5;

/** The vault's rules beyond the store's: rotation with propagation, where a secret is used, deletion. */
@Injectable()
export class VaultService {
  constructor(
    private readonly store: CredentialStore,
    private readonly users: SecretUsers,
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
  async usage(tenantId: string, credentialId: string): Promise<NamedSecretUse[]> {
    await this.store.assertExists(tenantId, credentialId);
    return this.users.list(tenantId, credentialId);
  }

  /**
   * A secret that pipes use is deleted only when `force` confirms it: those pipes keep its value
   * upstream, but an update or a new create that references it is refused from then on. The
   * deletion's event names them.
   */
  async remove(tenantId: string, id: string, force: boolean, actor: Actor): Promise<void> {
    const credential = await this.store.get(tenantId, id);
    const users = await this.users.pipes(tenantId, id);
    if (users.length > 0 && !force) throw secretInUse(credential, users);
    await this.store.remove(
      tenantId,
      id,
      actor,
      users.map((user) => user.pipeId),
    );
  }
}

function secretInUse(credential: CredentialView, users: SecretUser[]): ProblemException {
  const named = users
    .slice(0, PIPES_NAMED)
    .map((user) => (user.pipeName === null ? user.pipeId : `"${user.pipeName}" (${user.pipeId})`));
  const more = users.length > PIPES_NAMED ? ` and ${users.length - PIPES_NAMED} more` : '';
  return new ProblemException({
    status: 409,
    type: 'secret-in-use',
    title: 'Secret in use',
    detail:
      `The secret "${credential.name}" is used by ${users.length === 1 ? '1 pipe' : `${users.length} pipes`}: ` +
      `${named.join(', ')}${more}. They keep its value upstream, but updating or creating one that references it ` +
      'fails once it is deleted. Delete with ?force=true to go ahead.',
    pipes: users.map(({ pipeId, pipeName, organizationId, serviceId, paths }) => ({
      pipeId,
      name: pipeName,
      organizationId,
      serviceId,
      paths,
    })),
  });
}
