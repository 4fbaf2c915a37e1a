/**
 * The error answers of the OpenAPI document, as decorators composed by the kind of route: every
 * authenticated route (auth.decorators.ts), every route that reads a JSON body, every route that
 * calls an upstream, and a few request headers. Each decorator adds its reasons to a status; the
 * reasons several decorators give for one status are listed together. They work on a method, or
 * on a controller, where they document each of its routes.
 */
import { applyDecorators } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { ApiBody, ApiHeader, ApiResponse } from '@nestjs/swagger';
import type {
  HeaderObject,
  ReferenceObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { PROBLEM_CONTENT_TYPE } from '../common/problem/problem';
import { schemaRef } from '../common/validation/json-schema';
import { PROBLEM_SCHEMA } from './problem.schema';

type RouteDecorator = MethodDecorator & ClassDecorator;

export const RETRY_AFTER: HeaderObject = {
  description: 'Seconds to wait before trying again.',
  schema: { type: 'integer', minimum: 1 },
};

const WWW_AUTHENTICATE: HeaderObject = {
  description: 'The scheme to authenticate with: `Bearer`.',
  schema: { type: 'string', example: 'Bearer' },
};

const ETAG: HeaderObject = {
  description: 'The entity tag of the dashboard as it is now, quotes included; send it back in If-Match.',
  schema: { type: 'string', example: '"5d41402abc4b2a76b9719d911017c592"' },
};

/** The `ETag` response header, for the answers that carry one. */
export const ETAG_HEADER = { ETag: ETAG };

/**
 * A problem+json answer with `status`, for `reason` (written "`type`: when it happens"). On a
 * controller it documents every route the controller has.
 */
export function ApiProblem(
  status: number,
  reason: string,
  headers?: Record<string, HeaderObject>,
): RouteDecorator {
  const response = ApiResponse({
    status,
    description: reason,
    content: { [PROBLEM_CONTENT_TYPE]: { schema: schemaRef('Problem', PROBLEM_SCHEMA) } },
    ...(headers ? { headers } : {}),
  });
  return (target: object, key?: string | symbol, descriptor?: PropertyDescriptor): void => {
    if (descriptor) {
      response(target, key as string | symbol, descriptor);
      return;
    }
    // Nest lets a method's answer for a status replace the controller's: applied to each route
    // instead, the reasons of both are kept.
    const prototype = (target as { prototype: object }).prototype;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const route = Object.getOwnPropertyDescriptor(prototype, name) as PropertyDescriptor;
      const handler: unknown = route.value;
      if (typeof handler === 'function' && Reflect.hasMetadata(PATH_METADATA, handler)) {
        response(prototype, name, route);
      }
    }
  };
}

/**
 * What every route can answer about its URL, before anything else is looked at: the public ones
 * (health, metrics) too.
 */
export const ApiUrlProblems = (): RouteDecorator =>
  ApiProblem(
    400,
    '`bad-request`: the URL holds an encoded NUL (%00). `validation-failed`: a query parameter has a ' +
      'percent-escape that does not decode as UTF-8; `errors` names it.',
  );

/** What every route that takes a gateway key, a user token or the platform token can answer. */
export const ApiAuthenticationProblems = (forbidden: string): RouteDecorator =>
  applyDecorators(
    ApiProblem(
      400,
      '`validation-failed`: a request header, path parameter or query parameter is not valid; `errors` names each.',
    ),
    ApiProblem(
      401,
      '`unauthenticated`: no credential, or one that is not valid (unknown, revoked, expired); `detail` says which.',
      { 'WWW-Authenticate': WWW_AUTHENTICATE },
    ),
    ApiProblem(403, forbidden),
    ApiProblem(
      429,
      '`rate-limited`: too many calls for this key, user or tenant, or too many failed authentications from ' +
        'this address. Retry after `Retry-After`.',
      { 'Retry-After': RETRY_AFTER },
    ),
    ApiProblem(
      503,
      '`database-unavailable`: the gateway cannot reach its database; nothing was changed. `sign-in-unavailable`: ' +
        "the OIDC issuer's keys cannot be fetched to check a user token. Retry after `Retry-After`.",
      { 'Retry-After': RETRY_AFTER },
    ),
  );

/**
 * A JSON request body, and what the route can answer about it. `schema` describes a body the
 * gateway checks against a schema (json-schema.ts); a DTO body's schema comes from its class.
 */
export const ApiJsonBody = (schema?: SchemaObject | ReferenceObject): RouteDecorator =>
  applyDecorators(
    ...(schema ? [ApiBody({ schema })] : []),
    ApiProblem(
      400,
      '`validation-failed`: the body is not valid JSON, not an object, too deep, or a field is missing, unknown or ' +
        'not valid; `errors` has one entry per field, its path and what is wrong.',
    ),
    ApiProblem(
      413,
      '`payload-too-large`: the body is larger than the limit (BODY_LIMIT_BYTES, 1 MiB by default); `detail` names it.',
    ),
    ApiProblem(415, '`unsupported-media-type`: the body is not sent as `application/json`.'),
  );

export type UpstreamName = 'pipes' | 'dashboards';

const UPSTREAM_LABEL: Record<UpstreamName, string> = {
  pipes: 'the pipes API',
  dashboards: 'the dashboards API',
};

/**
 * What a route that calls an upstream can answer because of it: the statuses passed through with
 * the upstream's (redacted) error in `upstream`, and the gateway's own answers for an upstream that
 * is missing, refusing the stored credential, failing or slow.
 */
export function ApiUpstreamProblems(upstream: UpstreamName): RouteDecorator {
  const label = UPSTREAM_LABEL[upstream];
  const passedThrough = (status: number, meaning: string) =>
    ApiProblem(
      status,
      `\`upstream-rejected-request\`: ${label} answered ${status} (${meaning}); \`detail\` gives its reason ` +
        '("The … API refused: …") when it said one, and its error body, secrets removed, is in `upstream.body`.',
    );
  return applyDecorators(
    passedThrough(400, 'it refused the request'),
    passedThrough(404, 'no such resource there'),
    passedThrough(409, 'a conflict with its current state'),
    passedThrough(412, 'a precondition failed'),
    passedThrough(413, 'the request was too large for it'),
    passedThrough(422, 'it could not process the request'),
    ApiProblem(
      422,
      `\`${upstream}-credential-missing\`: the tenant has no ${upstream} credential for this call; an admin ` +
        'stores one with POST /v1/credentials.',
    ),
    ...(upstream === 'pipes'
      ? [
          ApiProblem(
            424,
            '`upstream-service-idle`: the target service is idle; wake it in the console and try again.',
          ),
        ]
      : []),
    ApiProblem(
      429,
      `\`upstream-rate-limited\`: ${label} is rate limiting this credential. \`rate-limited\`: the gateway ` +
        `holds calls with this credential to ${upstream === 'pipes' ? 'PIPES_API_RATE_LIMIT' : 'DASHBOARDS_API_RATE_LIMIT'}. ` +
        'Retry after `Retry-After`.',
      { 'Retry-After': RETRY_AFTER },
    ),
    ApiProblem(
      502,
      `\`upstream-credential-rejected\`: ${label} refused the stored credential, which \`detail\` names (name and id) and which is marked so until rotated. ` +
        `\`upstream-error\`: it answered 5xx. \`upstream-unreachable\`: it could not be reached (\`detail\` names its scheme, host and port). ` +
        '`upstream-malformed-response`, `upstream-invalid-answer`: its answer was not usable.',
    ),
    ApiProblem(
      503,
      `\`upstream-circuit-open\`: ${label} failed several times in a row for this credential; calls are paused. ` +
        'Retry after `Retry-After` seconds, which `detail` repeats.',
      { 'Retry-After': RETRY_AFTER },
    ),
    ApiProblem(
      500,
      '`credential-unreadable`: the stored credential cannot be decrypted (altered, copied, or sealed with a key ' +
        'that is not configured); nothing was sent upstream. An admin should rotate it.',
    ),
    ApiProblem(504, `\`upstream-timeout\`: ${label} did not answer within UPSTREAM_TIMEOUT_MS.`),
  );
}

/** The Idempotency-Key request header of a create, and what reusing a key can answer. */
export const ApiIdempotencyKey = (what: string): RouteDecorator =>
  applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        `1 to 255 printable characters without spaces. The same key with the same body within 24 hours answers ` +
        `the first answer again and ${what}.`,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    }),
    ApiProblem(
      409,
      '`idempotent-request-in-progress`: a request with this key is still running (retry after `Retry-After`). ' +
        '`idempotent-outcome-unknown`: the first request with this key was interrupted; check before retrying.',
      { 'Retry-After': RETRY_AFTER },
    ),
    ApiProblem(
      422,
      '`idempotency-key-reused`: the key was used within 24 hours for a different request; use a new key.',
    ),
  );

/** The If-Match request header of a dashboard write, and the answer when it no longer matches. */
export const ApiIfMatch = (): RouteDecorator =>
  applyDecorators(
    ApiHeader({
      name: 'If-Match',
      required: false,
      description:
        'The ETag from a read, quotes included (`"5d41…"`), or `*`, or several separated by commas: the write is ' +
        'made only if the dashboard still has one of them. Without it the write proceeds. An unquoted tag is ' +
        'refused with 400.',
      schema: { type: 'string', maxLength: 1024 },
    }),
    ApiProblem(
      412,
      '`dashboard-changed`: the dashboard changed since it was read (If-Match matches no current ETag), or no ' +
        'longer exists; nothing was written. Read it again; the answer carries the current ETag.',
      ETAG_HEADER,
    ),
  );

/** What a pipe write whose body may hold `{"$secret": name}` references can answer about them. */
export const ApiSecretReferences = (): RouteDecorator =>
  ApiProblem(
    422,
    '`secret-reference-misplaced`: a `{"$secret": name}` reference stands where the pipes service takes no ' +
      'secret (only credential objects, access keys, passwords, secret and private keys, connection strings and ' +
      'service-account keys take one); `errors` names each place, and nothing is sent or recorded. ' +
      '`secret-reference-unknown`: a reference names no vault secret of the tenant; `errors` names each place. ' +
      '`credential-unreadable` (500) if a referenced secret cannot be decrypted.',
  );
