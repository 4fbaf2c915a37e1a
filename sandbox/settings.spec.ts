import { ConfigError } from '../src/config/app-config';
import { loadSandboxSettings } from './settings';

describe('loadSandboxSettings', () => {
  it('defaults to loopback and the documented ports, with no faults', () => {
    expect(loadSandboxSettings({})).toEqual({
      host: '127.0.0.1',
      pipesPort: 4010,
      dashboardsPort: 4020,
      oidcPort: 4030,
      faults: [],
    });
  });

  it('takes ports (0 picks a free one), an address to listen on, and one fault or a list', () => {
    const settings = loadSandboxSettings({
      SANDBOX_HOST: '0.0.0.0',
      SANDBOX_PIPES_PORT: '0',
      SANDBOX_DASHBOARDS_PORT: '5020',
      SANDBOX_OIDC_PORT: '5030',
      SANDBOX_FAULTS: '{"kind":"latency","ms":200}',
    });
    expect(settings).toEqual({
      host: '0.0.0.0',
      pipesPort: 0,
      dashboardsPort: 5020,
      oidcPort: 5030,
      faults: [{ kind: 'latency', ms: 200 }],
    });
    expect(
      loadSandboxSettings({
        SANDBOX_FAULTS: '[{"kind":"status","status":503,"times":2},{"kind":"echoSecrets"}]',
      }).faults,
    ).toEqual([{ kind: 'status', status: 503, times: 2 }, { kind: 'echoSecrets' }]);
  });

  it.each([
    [{ SANDBOX_PIPES_PORT: 'abc' }, 'SANDBOX_PIPES_PORT must be a whole number from 0 to 65535 (got "abc")'],
    [{ SANDBOX_DASHBOARDS_PORT: '70000' }, 'SANDBOX_DASHBOARDS_PORT must be a whole number from 0 to 65535'],
    [{ SANDBOX_OIDC_PORT: '-1' }, 'SANDBOX_OIDC_PORT must be a whole number from 0 to 65535'],
    [{ SANDBOX_HOST: 'example.com' }, 'SANDBOX_HOST must be an IP address such as 127.0.0.1 or 0.0.0.0'],
    [{ SANDBOX_FAULTS: '{kind: latency}' }, 'SANDBOX_FAULTS must be JSON: a fault object or a list of them'],
    [{ SANDBOX_FAULTS: '{"kind":"explode"}' }, 'SANDBOX_FAULTS has a bad fault: kind must be one of latency'],
  ])('refuses %j naming the setting', (env, message) => {
    expect(() => loadSandboxSettings(env)).toThrow(ConfigError);
    expect(() => loadSandboxSettings(env)).toThrow(message);
  });
});
