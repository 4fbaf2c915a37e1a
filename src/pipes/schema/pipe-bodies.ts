/** The pipe body checks, compiled once when the gateway (or the sandbox's simulator) starts. */
import { compileBodyCheck } from '../../common/validation/json-schema';
import {
  exactlyOneSourceKind,
  everyDestinationColumnMapped,
  oneKafkaCredentialForm,
  startTimeGiven,
} from './pipe-body.rules';
import {
  CREATE_PIPE_BODY,
  SCALING_UPDATE_BODY,
  SETTINGS_BODY,
  STATE_BODY,
  UPDATE_PIPE_BODY,
} from './pipe-bodies.schema';

export const checkCreatePipeBody = compileBodyCheck(CREATE_PIPE_BODY, [
  exactlyOneSourceKind,
  everyDestinationColumnMapped,
  oneKafkaCredentialForm,
  startTimeGiven,
]);

export const checkUpdatePipeBody = compileBodyCheck(UPDATE_PIPE_BODY, [oneKafkaCredentialForm]);

export const checkScalingBody = compileBodyCheck(SCALING_UPDATE_BODY);

export const checkStateBody = compileBodyCheck(STATE_BODY);

export const checkSettingsBody = compileBodyCheck(SETTINGS_BODY);
