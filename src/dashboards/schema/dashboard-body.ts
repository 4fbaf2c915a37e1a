/** The dashboard body check, compiled once when the gateway (or the sandbox's simulator) starts. */
import { compileBodyCheck } from '../../common/validation/json-schema';
import { seriesOrConfig, uniqueTileIds } from './dashboard-body.rules';
import { DASHBOARD_BODY } from './dashboard-body.schema';

export const checkDashboardBody = compileBodyCheck(DASHBOARD_BODY, [uniqueTileIds, seriesOrConfig]);
