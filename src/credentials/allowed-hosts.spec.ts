import { isAllowedHost } from './allowed-hosts';

describe('isAllowedHost', () => {
  const allowed = ['dash.example.com', 'obs.example.com:8443', '127.0.0.1:8080', '[::1]:9000', '[fd00::1]'];

  it.each([
    ['https://dash.example.com', true],
    ['https://dash.example.com:443/base', true],
    ['http://dash.example.com', true],
    ['https://DASH.example.com', true],
    ['https://dash.example.com:8443', false],
    ['https://dash.example.com:80', false],
    ['http://dash.example.com:443', false],
    ['https://sub.dash.example.com', false],
    ['https://obs.example.com:8443', true],
    ['https://obs.example.com', false],
    ['http://127.0.0.1:8080', true],
    ['http://127.0.0.1', false],
    ['http://127.0.0.1:8081', false],
    ['http://[::1]:9000', true],
    ['http://[::1]:9001', false],
    ['https://[fd00::1]', true],
    ['https://[fd00::1]:8443', false],
  ])('%s → %s', (address, expected) => {
    expect(isAllowedHost(new URL(address), allowed)).toBe(expected);
  });

  it('admits a default port named explicitly only for that scheme', () => {
    expect(isAllowedHost(new URL('https://dash.example.com'), ['dash.example.com:443'])).toBe(true);
    expect(isAllowedHost(new URL('http://dash.example.com'), ['dash.example.com:443'])).toBe(false);
  });
});
