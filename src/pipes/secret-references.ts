import { Injectable } from '@nestjs/common';
import type { Actor } from '../auth/principal';
import { ProblemException, type ProblemFieldError } from '../common/problem/problem';
import { validationProblem } from '../common/problem/validation';
import { join } from '../common/validation/json-schema';
import { CredentialsService } from '../credentials/credentials.service';
import { isSecretField, isSecretReference } from '../redaction/redact';

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
  reference: string;
}

/**
 * `{"$secret": "<name or id>"}` anywhere in a pipe body stands for a vault secret of the tenant. The
 * body the caller sent (references and all) is what the gateway keeps; the values are put in only
 * for the upstream call.
 */
@Injectable()
export class SecretReferences {
  constructor(private readonly credentials: CredentialsService) {}

  async resolve(tenantId: string, body: unknown, actor: Actor): Promise<ResolvedBody> {
    const sites = referenceSites(body);
    if (sites.length === 0) return { body: body as Record<string, unknown>, uses: [], values: [] };
    const found = await this.credentials.vaultSecrets(
      tenantId,
      [...new Set(sites.map((site) => site.reference))],
      actor,
    );
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
    const resolved = replaced(body, (reference) => {
      const { value } = found.get(reference)!.secret;
      for (const text of secretTexts(value)) values.add(text);
      return structuredClone(value);
    });
    return {
      body: resolved as Record<string, unknown>,
      uses: sites.map(({ path, reference }) => ({ path, credentialId: found.get(reference)!.id })),
      values: [...values],
    };
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

/** Every reference in `body`, with its path; a malformed one is a 400 naming it. */
function referenceSites(body: unknown): ReferenceSite[] {
  const sites: ReferenceSite[] = [];
  const malformed: ProblemFieldError[] = [];
  // A path is spelled out only where a reference sits: most bodies hold none, and spelling out
  // every field's path was a tenth of what a pipe create allocated.
  const segments: (string | number)[] = [];
  const here = (): string => segments.reduce<string>((path, segment) => join(path, segment), '');
  const walk = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        segments.push(index);
        walk(value[index]);
        segments.pop();
      }
      return;
    }
    if (Object.hasOwn(value, '$secret')) {
      if (isSecretReference(value) && value.$secret.length > 0) {
        sites.push({ path: here(), reference: value.$secret });
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
      walk(record[key]);
      segments.pop();
    }
  };
  walk(body);
  if (malformed.length > 0) throw validationProblem(malformed);
  return sites;
}

function replaced(value: unknown, resolve: (reference: string) => unknown): unknown {
  if (isSecretReference(value)) return resolve(value.$secret);
  if (Array.isArray(value)) return value.map((item) => replaced(item, resolve));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, replaced(inner, resolve)]));
}

/** The paths of every field `body` sets, to tell which references an update replaced. */
export function fieldPaths(body: unknown, path = ''): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || isSecretReference(body)) return [];
  return Object.entries(body).flatMap(([key, inner]) => [
    join(path, key),
    ...fieldPaths(inner, join(path, key)),
  ]);
}
