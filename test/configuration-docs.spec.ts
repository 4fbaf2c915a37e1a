/**
 * Every environment variable the gateway and the sandbox read is documented in
 * docs/configuration.md: the variables are found by recording what the loaders read, so a new
 * setting cannot be added without its row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/config/app-config';
import { loadSandboxSettings } from '../sandbox/settings';
import { tracingSettings } from '../src/tracing/tracing-settings';

/** The names `load` reads from its environment, given `env` (so that optional branches are taken). */
function namesRead(load: (env: Record<string, string | undefined>) => unknown, env: Record<string, string>) {
  const read = new Set<string>();
  load(
    new Proxy(env, {
      get: (target, name) => {
        if (typeof name === 'string') read.add(name);
        return target[name as string];
      },
    }),
  );
  return [...read];
}

describe('docs/configuration.md', () => {
  const docs = readFileSync(join(__dirname, '..', 'docs', 'configuration.md'), 'utf8');

  it('documents every setting the gateway and the sandbox read', () => {
    const names = [
      ...namesRead(loadConfig, {
        OIDC_ISSUER: 'https://login.example.com/',
        OIDC_AUDIENCE: 'pipes-gateway',
        AUDIT_RETENTION_DAYS: '30',
        REDIS_URL: 'redis://localhost:6379',
      }),
      ...namesRead(loadSandboxSettings, {}),
      ...namesRead(tracingSettings, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }),
    ];
    expect(names).toEqual(
      expect.arrayContaining([
        'PORT',
        'OIDC_GROUPS_CLAIM',
        'HTTPS_PROXY',
        'SANDBOX_HOST',
        'OTEL_SDK_DISABLED',
      ]),
    );
    // Proxy variables are documented by their upper-case names; axios reads the lower-case ones too.
    const undocumented = names.filter((name) => !docs.includes(`\`${name.toUpperCase()}\``));
    expect(undocumented).toEqual([]);
  });
});
