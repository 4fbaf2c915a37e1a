/**
 * Path parameters of the pipes routes. All are UUIDs (any version) by the contract; checking them here
 * also keeps a crafted id such as `../x` from changing the upstream path.
 */
import { PlainParamsPipe, uuidRule } from '../../common/validation/plain-params';
import type { PipeLocation, PipePath } from '../../upstream/pipes-api.client';

export type { PipePath };

const locationRules = { organizationId: uuidRule, serviceId: uuidRule };

export const pipeLocationParams = new PlainParamsPipe<PipeLocation>(locationRules);

export const pipePathParams = new PlainParamsPipe<PipePath>({ ...locationRules, pipeId: uuidRule });
