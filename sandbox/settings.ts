import { isIP } from 'node:net';
import { checkFaultSpec, FaultSpecError } from './faults';
import type { FaultSpec } from './faults';
import { ConfigError, integer } from '../src/config/app-config';

/** What `npm run sandbox` reads besides the gateway's own settings. */
export interface SandboxSettings {
  /** The listen address of the simulators and the OIDC issuer (the gateway's is HOST). */
  host: string;
  pipesPort: number;
  dashboardsPort: number;
  oidcPort: number;
  /** Faults the simulators start with. */
  faults: FaultSpec[];
}

/** Where the sandbox keeps its embedded database, keys and sandbox.env unless DATA_DIR says otherwise. */
export const SANDBOX_DATA_DIR = './data/sandbox';

/**
 * Reads the SANDBOX_* settings, each checked like the gateway's: a bad value is a ConfigError that
 * names its variable. Ports are 0 to 65535, 0 picking a free one.
 */
export function loadSandboxSettings(env: Record<string, string | undefined>): SandboxSettings {
  const host = env.SANDBOX_HOST?.trim() || '127.0.0.1';
  if (isIP(host) === 0) {
    throw new ConfigError(
      'SANDBOX_HOST',
      `must be an IP address such as 127.0.0.1 or 0.0.0.0 (got "${host}")`,
    );
  }
  return {
    host,
    pipesPort: integer(env, 'SANDBOX_PIPES_PORT', 4010, 0, 65535),
    dashboardsPort: integer(env, 'SANDBOX_DASHBOARDS_PORT', 4020, 0, 65535),
    oidcPort: integer(env, 'SANDBOX_OIDC_PORT', 4030, 0, 65535),
    faults: faults(env.SANDBOX_FAULTS),
  };
}

/** SANDBOX_FAULTS: one fault or a list, as `POST /__sandbox/faults` takes them. */
function faults(raw: string | undefined): FaultSpec[] {
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('SANDBOX_FAULTS', `must be JSON: a fault object or a list of them (got "${raw}")`);
  }
  try {
    return (Array.isArray(parsed) ? parsed : [parsed]).map(checkFaultSpec);
  } catch (error) {
    if (error instanceof FaultSpecError)
      throw new ConfigError('SANDBOX_FAULTS', `has a bad fault: ${error.message}`);
    throw error;
  }
}
