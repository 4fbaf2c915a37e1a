import { Injectable } from '@nestjs/common';
import type { Actor } from '../../auth/principal';
import { ProblemException, type ProblemFieldError } from '../../common/problem/problem';
import { validationProblem } from '../../common/problem/validation';
import { join } from '../../common/validation/json-schema';
import { isUUID } from 'class-validator';
import { CredentialSealing } from '../../credentials/credential-sealing';
import type { VaultSecret } from '../../credentials/credential-secret';
import { CredentialUseTally } from '../../credentials/credential-use-tally';
import { CredentialsRepository } from '../../credentials/credentials.repository';
import { setField } from '../../common/set-field';
import { isRedactedField, isSecretField, isSecretReference } from '../../redaction/redact';

/**
 * Whether the field `field` is a secret place (below), `within` saying whether the object holding it
 * is in one. What a body may hold and how the OpenAPI document types it (secret-reference.schema.ts)
 * both follow this rule.
 */
export function isSecretPlace(field: string, within: boolean): boolean {
  return within || isRedactedField(field);
}

/** A place in a spec that references a vault secret, and the secret it names there. */
export interface SecretUseSite {
  path: string;
  credentialId: string;
}

/** A pipe body with its references replaced by the values they stand for, to send upstream only. */
export interface ResolvedBody {
  body: Record<string, unknown>;
  uses: SecretUseSite[];
  /** Every string the secrets hold: an upstream's answer must never carry one back. */
  values: string[];
}

interface ReferenceSite {
  path: string;
  /** The path, a field name or list index at a time. */
  segments: (string | number)[];
  reference: string;
  /** Whether it stands where the pipes service takes a secret. */
  secretPlace: boolean;
}

/**
 * `{"$secret": "<name or id>"}` in a pipe body stands for a vault secret of the tenant, at a place
 * where the pipes service takes a secret. The body the caller sent (references and all) is what the
 * gateway keeps; the values are put in only for the upstream call.
 *
 * A secret place is one whose value redaction replaces in every answer (`isRedactedField`): a field
 * named like a secret, or anything inside a secret object. Anywhere else the service would keep the
 * value as plain data and show it on every read of the pipe, so a reference there is refused.
 */
@Injectable()
export class SecretReferences {
  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly sealing: CredentialSealing,
    private readonly uses: CredentialUseTally,
  ) {}

  /**
   * Checked in this order, each refusal naming every path it applies to: a malformed reference
   * (400), a reference outside a secret place (422 `secret-reference-misplaced`), a reference to no
   * secret of the tenant (422 `secret-reference-unknown`). The vault is read only after the first two.
   */
  async resolve(tenantId: string, body: unknown, actor: Actor): Promise<ResolvedBody> {
    const sites = referenceSites(body);
    if (sites.length === 0) return { body: body as Record<string, unknown>, uses: [], values: [] };
    const misplaced = sites.filter((site) => !site.secretPlace);
    if (misplaced.length > 0) {
      throw new ProblemException({
        status: 422,
        type: 'secret-reference-misplaced',
        title: 'Secret reference outside a secret place',
        detail:
          'A secret reference may stand only where the pipes service takes a secret: credentials, access keys, ' +
          'passwords, secret and private keys, connection strings, service-account keys. Anywhere else its value ' +
          'would be kept upstream as plain data that every read of the pipe shows.',
        errors: misplaced.map(({ path }) => ({
          path,
          message: 'is no place for a secret: a reference may stand only where the pipes service takes one',
        })),
      });
    }
    const found = await this.vaultSecrets(tenantId, [...new Set(sites.map((site) => site.reference))], actor);
    const unknown = sites.filter((site) => !found.has(site.reference));
    if (unknown.length > 0) {
      throw new ProblemException({
        status: 422,
        type: 'secret-reference-unknown',
        title: 'Unknown secret reference',
        detail:
          'A secret reference names no secret of this tenant; an admin can store one with POST /v1/credentials.',
        errors: unknown.map(({ path, reference }) => ({
          path,
          message: `names no secret of this tenant: "${reference}"`,
        })),
      });
    }
    const values = new Set<string>();
    const resolved = withValuesAt(body as Record<string, unknown>, sites, (reference) => {
      const { value } = found.get(reference)!.secret;
      for (const text of secretTexts(value)) values.add(text);
      return structuredClone(value);
    });
    return {
      body: resolved,
      uses: sites.map(({ path, reference }) => ({ path, credentialId: found.get(reference)!.id })),
      values: [...values],
    };
  }

  /**
   * The tenant's vault secrets that `references` (names or ids) name, decrypted, by reference.
   * A reference that names none is absent from the answer.
   */
  private async vaultSecrets(
    tenantId: string,
    references: readonly string[],
    actor: Actor,
  ): Promise<Map<string, { id: string; secret: VaultSecret }>> {
    const ids = references.filter((reference) => isUUID(reference, 'all'));
    const rows = await this.credentials.secrets(tenantId, references, ids);
    const found = new Map<string, { id: string; secret: VaultSecret }>();
    for (const row of rows) {
      const secret = this.sealing.open(row) as VaultSecret;
      for (const reference of [row.id, row.secretName]) {
        if (reference !== null && references.includes(reference))
          found.set(reference, { id: row.id, secret });
      }
      this.uses.count({ id: row.id, tenantId }, actor);
    }
    return found;
  }
}

/**
 * The texts of a secret an answer must not quote: a string whole; of an object, the fields named like
 * secrets (a username is no secret, and blanking it out of every answer would garble names), or all
 * of them when none is.
 */
function secretTexts(value: string | Record<string, string>): string[] {
  if (typeof value === 'string') return [value];
  const secretFields = Object.keys(value).filter(isSecretField);
  return (secretFields.length > 0 ? secretFields : Object.keys(value)).map((field) => value[field]);
}

/** Every reference in `body`, with its path and place; a malformed one is a 400 naming it. */
function referenceSites(body: unknown): ReferenceSite[] {
  const sites: ReferenceSite[] = [];
  const malformed: ProblemFieldError[] = [];
  // A path is spelled out only where a reference sits: most bodies hold none, and spelling out
  // every field's path was a large share of what a pipe create allocated.
  const segments: (string | number)[] = [];
  const here = (): string => segments.reduce<string>((path, segment) => join(path, segment), '');
  const walk = (value: unknown, secretPlace: boolean): void => {
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        segments.push(index);
        walk(value[index], secretPlace);
        segments.pop();
      }
      return;
    }
    if (Object.hasOwn(value, '$secret')) {
      if (isSecretReference(value) && value.$secret.length > 0) {
        sites.push({ path: here(), segments: [...segments], reference: value.$secret, secretPlace });
      } else {
        malformed.push({
          path: here(),
          message: 'a secret reference is {"$secret": "<name or id>"}, a non-empty string and no other field',
        });
      }
      return;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      segments.push(key);
      walk(record[key], isSecretPlace(key, secretPlace));
      segments.pop();
    }
  };
  walk(body, false);
  if (malformed.length > 0) throw validationProblem(malformed);
  return sites;
}

/**
 * A copy of `body` with each site's reference replaced by what `valueOf` gives for it. Only the
 * objects and lists on the way to a site are copied: the body itself is kept as sent.
 */
function withValuesAt(
  body: Record<string, unknown>,
  sites: readonly ReferenceSite[],
  valueOf: (reference: string) => unknown,
): Record<string, unknown> {
  const copies = new WeakSet<object>();
  const copyOf = <T extends object>(container: T): T => {
    if (copies.has(container)) return container;
    const copy = (Array.isArray(container) ? [...container] : { ...container }) as T;
    copies.add(copy);
    return copy;
  };
  const root = copyOf(body);
  for (const { segments, reference } of sites) {
    let at = root;
    for (const segment of segments.slice(0, -1)) {
      const inner = copyOf(at[segment] as Record<string, unknown>);
      setField(at, String(segment), inner);
      at = inner;
    }
    setField(at, String(segments[segments.length - 1]), valueOf(reference));
  }
  return root;
}

/** The paths of every field `body` sets, to tell which references an update replaced. */
export function fieldPaths(body: unknown, path = ''): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || isSecretReference(body)) return [];
  return Object.entries(body).flatMap(([key, inner]) => [
    join(path, key),
    ...fieldPaths(inner, join(path, key)),
  ]);
}
