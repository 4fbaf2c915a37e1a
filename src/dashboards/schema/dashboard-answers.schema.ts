/**
 * What the dashboards routes answer: `{data}` as the dashboards API sent it. The service owns the
 * dashboard's shape, so it is described loosely (fields it adds pass through) and only documents
 * the answers; nothing is checked against it.
 */
import { schemaRef, type JsonSchema } from '../../common/validation/json-schema';

const TILE: JsonSchema = {
  type: 'object',
  description: 'A tile: its place on the 24-column grid and its `series` or `config`.',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    x: { type: 'number' },
    y: { type: 'number' },
    w: { type: 'number' },
    h: { type: 'number' },
  },
  additionalProperties: true,
};

const DASHBOARD: JsonSchema = {
  type: 'object',
  description: 'A dashboard as the dashboards API describes it; every field it has passes through.',
  properties: {
    id: { type: 'string', example: '65a1b2c3d4e5f60718293a4b' },
    name: { type: 'string' },
    tiles: { type: 'array', items: TILE },
    tags: { type: 'array', items: { type: 'string' } },
  },
  additionalProperties: true,
};

const dashboard = schemaRef('Dashboard', DASHBOARD);

export const DASHBOARD_ENVELOPE = schemaRef('DashboardEnvelope', {
  type: 'object',
  required: ['data'],
  properties: { data: dashboard },
  additionalProperties: true,
});

export const DASHBOARD_LIST_ENVELOPE = schemaRef('DashboardListEnvelope', {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'array', items: dashboard } },
  additionalProperties: true,
});
