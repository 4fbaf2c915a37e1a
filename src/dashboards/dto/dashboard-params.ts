/**
 * Path and query parameters of the dashboards routes. The id is a plain identifier
 * so it can never add a segment, a dot-segment or an encoded slash to the upstream path; the
 * upstream's own ids (24 hex characters) are one case of it.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiParam, ApiQuery } from '@nestjs/swagger';
import { ApiProblem } from '../../openapi/api-problems';
import { rangeMessage } from '../../common/validation/messages';
import { optional, ParamRule, PlainParamsPipe, uuidRule } from '../../common/validation/plain-params';

export const DASHBOARD_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_VERSION = 2_147_483_647;

const dashboardIdRule: ParamRule<string> = {
  parse: (raw) => (DASHBOARD_ID.test(raw) ? raw : undefined),
  message: 'must be 1 to 64 letters, digits, "-" or "_"',
};

const versionRule: ParamRule<number> = {
  parse: (raw) => (/^[1-9][0-9]{0,9}$/.test(raw) && Number(raw) <= MAX_VERSION ? Number(raw) : undefined),
  message: rangeMessage(true, 1, MAX_VERSION),
};

export interface DashboardPath {
  id: string;
}

export interface DashboardVersionPath extends DashboardPath {
  n: number;
}

export interface DashboardQuery {
  credentialId?: string;
}

export const dashboardPathParams = new PlainParamsPipe<DashboardPath>({ id: dashboardIdRule });

export const dashboardVersionPathParams = new PlainParamsPipe<DashboardVersionPath>({
  id: dashboardIdRule,
  n: versionRule,
});

export const dashboardQueryParams = new PlainParamsPipe<DashboardQuery>({ credentialId: optional(uuidRule) });

/** The parameters above in the OpenAPI document. */
export const ApiDashboardIdParam = () =>
  ApiParam({
    name: 'id',
    schema: { type: 'string', pattern: DASHBOARD_ID.source, example: '65a1b2c3d4e5f60718293a4b' },
    description: "The dashboard's id at the dashboards API.",
  });

export const ApiDashboardVersionParam = () =>
  ApiParam({
    name: 'n',
    schema: { type: 'integer', minimum: 1, maximum: MAX_VERSION },
    description: 'A stored version number.',
  });

export const ApiDashboardQuery = () =>
  applyDecorators(
    ApiQuery({
      name: 'credentialId',
      required: false,
      type: String,
      format: 'uuid',
      description: "Which of the tenant's dashboards credentials to use; the default one when left out.",
    }),
    ApiProblem(404, '`not-found`: the tenant has no dashboards credential with that credentialId.'),
  );
