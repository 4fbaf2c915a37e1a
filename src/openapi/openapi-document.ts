import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type {
  OperationObject,
  ResponseObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { GATEWAY_KEY_SCHEME, OIDC_SCHEME, PLATFORM_TOKEN_SCHEME } from '../auth/auth.decorators';
import { PROBLEM_CONTENT_TYPE } from '../common/problem/problem';
import { schemaComponents, schemaRef } from '../common/validation/json-schema';
import type { AppConfig } from '../config/app-config';
import { PROBLEM_SCHEMA } from './problem.schema';

const REQUEST_ID_DESCRIPTION =
  'Your id for this request, answered in the X-Request-Id response header, sent upstream and written to ' +
  'the audit log: kept when it is a plain token (a letter or digit, then letters, digits, ".", "_", ":", ' +
  '"-", at most 128 in all) that holds no gateway key, otherwise replaced by a new UUIDv4.';

/** The OpenAPI document served at /docs-json, built from the controllers' decorators. */
export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    withSecuritySchemes(new DocumentBuilder(), config)
      .setTitle('pipes-gateway')
      .setDescription(
        'One REST facade for the pipes management API and the dashboards API. Callers authenticate with ' +
          'a gateway key (`Authorization: Bearer <key>`)' +
          (config.oidc ? " or a signed-in user's token from the OIDC issuer" : '') +
          '; upstream secrets never leave the gateway. Errors are RFC 9457 problem+json (`Problem`).',
      )
      .setVersion('1')
      // Relative: the document describes the gateway that serves it, wherever it is reached.
      .addServer('/', 'The gateway that serves this document')
      .addGlobalParameters({
        in: 'header',
        name: 'X-Request-Id',
        required: false,
        description: REQUEST_ID_DESCRIPTION,
        schema: { type: 'string', maxLength: 128 },
      })
      .build(),
  );
  // The upstreams' body schemas and the gateway's answers described as data (json-schema.ts).
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...schemaComponents() },
    headers: {
      ...document.components?.headers,
      RequestId: {
        description:
          'The id of this request: the one sent in X-Request-Id if it was kept, else a new UUIDv4.',
        schema: { type: 'string' },
      },
    },
  };
  for (const operation of operationsOf(document)) {
    if (config.oidc) acceptUserTokensBesideKeys(operation);
    declareInternalError(operation);
    declareRequestIdHeader(operation);
  }
  return document;
}

/** The platform token, gateway keys and, with sign-in on, the OIDC issuer's user tokens. */
function withSecuritySchemes(builder: DocumentBuilder, config: AppConfig): DocumentBuilder {
  builder
    .addSecurity(PLATFORM_TOKEN_SCHEME, {
      type: 'http',
      scheme: 'bearer',
      description: 'The platform operator token (GATEWAY_ADMIN_TOKEN); only the /v1/admin routes take it.',
    })
    .addSecurity(GATEWAY_KEY_SCHEME, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'pgw_<prefix>_<secret>',
      description: "A tenant's gateway key; its roles decide which routes it may call.",
    });
  if (!config.oidc) return builder;
  return builder.addSecurity(OIDC_SCHEME, {
    type: 'openIdConnect',
    openIdConnectUrl: `${config.oidc.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
    description:
      `A signed-in user's token (a JWT) from ${config.oidc.issuer} for the audience ${config.oidc.audience}, sent ` +
      'as "Authorization: Bearer <token>". Roles come from the group mappings of the groups in its ' +
      `${config.oidc.groupsClaim} claim.`,
  });
}

function operationsOf(document: OpenAPIObject): OperationObject[] {
  return Object.values(document.paths).flatMap((operations) =>
    Object.values<OperationObject>(operations as Record<string, OperationObject>),
  );
}

/** Every operation a gateway key may call takes a user token as well. */
function acceptUserTokensBesideKeys(operation: OperationObject): void {
  if (operation.security?.some((requirement) => GATEWAY_KEY_SCHEME in requirement)) {
    operation.security = [...operation.security, { [OIDC_SCHEME]: [] }];
  }
}

const INTERNAL_ERROR =
  '`internal`: an unexpected error; `detail` reveals nothing of it, quote `requestId` when reporting it.';

/** Any operation can fail unexpectedly; the reasons a route documents for 500 come after. */
function declareInternalError(operation: OperationObject): void {
  const documented = operation.responses['500'] as ResponseObject | undefined;
  operation.responses['500'] = {
    content: { [PROBLEM_CONTENT_TYPE]: { schema: schemaRef('Problem', PROBLEM_SCHEMA) } },
    ...documented,
    description: documented ? `${INTERNAL_ERROR}\n\n${documented.description}` : INTERNAL_ERROR,
  };
}

/** Every answer, success or error, carries X-Request-Id. */
function declareRequestIdHeader(operation: OperationObject): void {
  for (const response of Object.values(operation.responses) as ResponseObject[]) {
    response.headers = {
      ...response.headers,
      'X-Request-Id': { $ref: '#/components/headers/RequestId' },
    };
  }
}
