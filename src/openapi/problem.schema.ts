/**
 * The one error shape of the gateway (RFC 9457 problem details, docs/api.md "Errors") as a JSON Schema
 * component of the OpenAPI document; `Problem` in problem.ts is the same shape as a type.
 */
import type { JsonSchema } from '../common/validation/json-schema';
import { PROBLEM_TYPE_BASE } from '../common/problem/problem';

export const PROBLEM_SCHEMA: JsonSchema = {
  type: 'object',
  description:
    'An error, as `application/problem+json`. `type` ends with a slug that says which error it is (the ' +
    'responses of each operation list them); `detail` says it for people.',
  required: ['type', 'title', 'status', 'detail', 'requestId'],
  properties: {
    type: {
      type: 'string',
      description: 'A URI naming the error.',
      example: `${PROBLEM_TYPE_BASE}validation-failed`,
    },
    title: { type: 'string', example: 'Validation failed' },
    status: { type: 'integer', example: 400 },
    detail: { type: 'string', example: 'The request is not valid; see errors.' },
    requestId: {
      type: 'string',
      description: 'The X-Request-Id of the request; quote it when reporting a problem.',
      example: '0b6f7c1e-3f47-4b8e-9d55-8f1f0c7a2b1d',
    },
    traceId: {
      type: 'string',
      pattern: '^[0-9a-f]{32}$',
      description:
        "While the gateway exports traces (OpenTelemetry): the request's W3C trace id, continued from its " +
        '`traceparent` when it sent one; find the trace of the request with it.',
      example: '4bf92f3577b34da6a3ce929d0e0e4736',
    },
    errors: {
      type: 'array',
      description: 'On 400: one entry per field or header that is not valid.',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: {
          path: {
            type: 'string',
            description: 'The field (`source.kafka.brokers`, `tiles[0].x`) or `header:<name>`.',
            example: 'keySecret',
          },
          message: { type: 'string', example: 'is required' },
        },
        additionalProperties: false,
      },
    },
    upstream: {
      type: 'object',
      description:
        "When an upstream's answer caused the error: its status, request id and body, secrets removed.",
      required: ['status', 'body'],
      properties: {
        status: { type: 'integer', example: 404 },
        requestId: { type: 'string' },
        body: { description: 'As the upstream sent it (JSON, text or null), secrets removed.' },
      },
      additionalProperties: false,
    },
    tenantId: {
      type: 'string',
      format: 'uuid',
      description:
        'On a 409 `conflict` for a tenant name that is taken, or a group assigned to another tenant: the id of the tenant that has it.',
    },
    pipes: {
      type: 'array',
      description:
        'On a 409 `secret-in-use`: the pipes that use the vault secret, named as the gateway last created or ' +
        'renamed them.',
      items: {
        type: 'object',
        required: ['pipeId', 'name', 'organizationId', 'serviceId', 'paths'],
        properties: {
          pipeId: { type: 'string' },
          name: { type: 'string', nullable: true, example: 'orders to warehouse' },
          organizationId: { type: 'string', format: 'uuid' },
          serviceId: { type: 'string', format: 'uuid' },
          paths: { type: 'array', items: { type: 'string' }, example: ['source.kafka.credentials'] },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};
