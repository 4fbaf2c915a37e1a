import { Injectable } from '@nestjs/common';
import { KeysService } from '../auth/keys.service';
import type { TenantPrincipal } from '../auth/principal';
import { grants } from '../auth/roles';
import { ProblemException } from '../common/problem/problem';
import { InvalidTokenError, OidcVerifier } from '../sign-in/oidc-verifier';
import { SignInService } from '../sign-in/sign-in.service';

/** Why a stream's credential no longer admits it, or null while it does. */
export type Lapse = 'credential-revoked' | 'credential-expired' | 'role-withdrawn' | null;

/**
 * Checks again, while a stream is open, what the auth guard checked when it was opened: a key
 * revoked or a token expired (or a role withdrawn) ends the stream. An error of the check itself
 * (the database briefly away) keeps the stream: it is checked again next time.
 */
@Injectable()
export class StreamAccess {
  constructor(
    private readonly keys: KeysService,
    private readonly oidc: OidcVerifier,
    private readonly signIn: SignInService,
  ) {}

  async lapse(token: string, principal: TenantPrincipal): Promise<Lapse> {
    try {
      if (principal.kind === 'key') {
        const key = await this.keys.authenticate(token);
        if (!key || key.tenantId !== principal.tenantId) return 'credential-revoked';
        return grants(key.roles, 'viewer') ? null : 'role-withdrawn';
      }
      const user = await this.oidc.verify(token);
      const now = await this.signIn.principalFor(user, principal.tenantId);
      return now.tenantId === principal.tenantId && grants(now.roles, 'viewer') ? null : 'role-withdrawn';
    } catch (error) {
      if (error instanceof InvalidTokenError) return 'credential-expired';
      if (error instanceof ProblemException && error.problem.status === 403) return 'role-withdrawn';
      return null;
    }
  }
}
