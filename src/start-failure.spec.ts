import { ConfigError } from './config/app-config';
import { KeyRingError } from './crypto/key-ring';
import { startFailureLine } from './start-failure';

describe('startFailureLine', () => {
  it('reads a setting error as a configuration error', () => {
    expect(startFailureLine('pipes-gateway', new ConfigError('PORT', 'must be a port number'))).toBe(
      'pipes-gateway: configuration error: PORT must be a port number',
    );
    expect(startFailureLine('pipes-gateway', new KeyRingError('AUDIT_CHAIN_KEYS', 'must be set'))).toBe(
      'pipes-gateway: configuration error: AUDIT_CHAIN_KEYS must be set',
    );
  });

  it('keeps any other failure on one line', () => {
    expect(
      startFailureLine('pipes-gateway sandbox', new Error('migration x failed:\n  syntax error\n')),
    ).toBe('pipes-gateway sandbox: failed to start: migration x failed: syntax error');
    expect(startFailureLine('pipes-gateway', 'odd')).toBe('pipes-gateway: failed to start: odd');
  });
});
