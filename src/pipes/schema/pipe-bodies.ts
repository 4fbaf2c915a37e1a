/** The pipe body checks, compiled once when the gateway (or the sandbox's simulator) starts. */
import { compileBodyCheck, type JsonSchema } from '../../common/validation/json-schema';
import { exactlyOneSourceKind, oneKafkaCredentialForm, startTimeGiven } from './pipe-body.rules';
import {
  CHANGEABLE_UPDATE_BODY,
  CREATE_PIPE_BODY,
  SCALING_UPDATE_BODY,
  SETTINGS_BODY,
  STATE_BODY,
  UPDATE_PIPE_BODY,
} from './pipe-bodies.schema';

export const checkCreatePipeBody = compileBodyCheck(CREATE_PIPE_BODY, [
  exactlyOneSourceKind,
  oneKafkaCredentialForm,
  startTimeGiven,
]);

export const checkUpdatePipeBody = compileBodyCheck(UPDATE_PIPE_BODY, [oneKafkaCredentialForm]);

export const checkScalingBody = compileBodyCheck(SCALING_UPDATE_BODY);

export const checkStateBody = compileBodyCheck(STATE_BODY);

export const checkSettingsBody = compileBodyCheck(SETTINGS_BODY);

/**
 * Whether an update changes the field at `path` (dotted, as a problem names it) on its own: a place
 * the service documents as set at create, or one inside a list, is not.
 */
export function isUpdatablePath(path: string): boolean {
  let schema: JsonSchema | undefined = CHANGEABLE_UPDATE_BODY;
  for (const segment of path.split('.')) {
    const properties = schema?.properties as Record<string, JsonSchema> | undefined;
    if (segment.includes('[') || properties === undefined || !Object.hasOwn(properties, segment))
      return false;
    schema = properties[segment];
  }
  return true;
}
