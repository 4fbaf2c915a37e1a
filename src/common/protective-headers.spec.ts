import { protectiveHeaders } from './protective-headers';

describe('protectiveHeaders', () => {
  it("holds helmet's headers for the gateway's policy", () => {
    const headers = protectiveHeaders();
    expect(headers).toMatchObject({
      'content-security-policy': expect.stringContaining("default-src 'self'"),
      'strict-transport-security': expect.stringMatching(/^max-age=\d+/),
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
    });
    expect(headers['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'");
    expect(headers).not.toHaveProperty('x-powered-by');
  });
});
