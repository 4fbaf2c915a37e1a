import { Injectable } from '@nestjs/common';
import { DisplayNames } from '../display-names/display-names';
import { SecretUsesRepository, type SecretUseView } from './references/secret-uses.repository';

/** One use of a vault secret, with the name the gateway knows for its pipe. */
export type NamedSecretUse = SecretUseView & { pipeName: string | null };

/** A pipe that uses a vault secret: where it stands in the pipe, and the pipe's name. */
export interface SecretUser {
  pipeId: string;
  pipeName: string | null;
  organizationId: string;
  serviceId: string;
  paths: string[];
}

/** The pipes that use a vault secret, named from the gateway's own records (no upstream call). */
@Injectable()
export class SecretUsers {
  constructor(
    private readonly records: SecretUsesRepository,
    private readonly names: DisplayNames,
  ) {}

  /** Each use, one per place a pipe references the secret. */
  async list(tenantId: string, credentialId: string): Promise<NamedSecretUse[]> {
    const uses = await this.records.list(tenantId, credentialId);
    const names = await this.names.pipes(
      tenantId,
      uses.map((use) => use.pipeId),
    );
    return uses.map((use) => ({ ...use, pipeName: names.get(use.pipeId) ?? null }));
  }

  /** Each pipe once, with every place it references the secret, in the order of its first use. */
  async pipes(tenantId: string, credentialId: string): Promise<SecretUser[]> {
    const byPipe = new Map<string, SecretUser>();
    for (const { pipeId, pipeName, organizationId, serviceId, path } of await this.list(
      tenantId,
      credentialId,
    )) {
      const pipe = byPipe.get(pipeId) ?? { pipeId, pipeName, organizationId, serviceId, paths: [] };
      pipe.paths.push(path);
      byPipe.set(pipeId, pipe);
    }
    return [...byPipe.values()];
  }
}
