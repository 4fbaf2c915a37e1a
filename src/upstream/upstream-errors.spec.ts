import {
  MAX_REASON_CHARS,
  upstreamAddress,
  upstreamClientError,
  upstreamReason,
  upstreamUnreachable,
  UpstreamCredentialRejectedException,
} from './upstream-errors';

describe('UpstreamCredentialRejectedException', () => {
  it('names the credential to rotate once the caller of the upstream knows it, and keeps the rest', () => {
    const upstream = { status: 401, requestId: 'up-1', body: { error: 'invalid key' } };
    const refused = new UpstreamCredentialRejectedException('pipes', 401, upstream);
    expect(refused.problem.detail).toBe(
      'The pipes API answered 401 to the stored credential; it is marked rejected until an admin rotates it.',
    );
    const named = refused.naming({ id: '6f1c2d3e-0000-4000-8000-000000000001', name: 'prod org key' });
    expect(named).toBeInstanceOf(UpstreamCredentialRejectedException);
    expect(named.upstreamStatus).toBe(401);
    expect(named.problem).toEqual({
      ...refused.problem,
      detail:
        'The pipes API answered 401 to the stored credential "prod org key" (6f1c2d3e-0000-4000-8000-000000000001); ' +
        'it is marked rejected until an admin rotates it.',
    });
  });
});

describe('upstreamAddress', () => {
  it('shows scheme, host and port, never user-info, path or query', () => {
    expect(upstreamAddress('https://key:s3cret@dash.example.com/t/abc123/api?token=x#f')).toBe(
      'https://dash.example.com:443',
    );
    expect(upstreamAddress('http://127.0.0.1:4010/v1')).toBe('http://127.0.0.1:4010');
    expect(upstreamAddress('http://[::1]:8080')).toBe('http://[::1]:8080');
    expect(upstreamAddress('http://pipes.internal')).toBe('http://pipes.internal:80');
    expect(upstreamAddress('not a url')).toBe('(an address that is not a URL)');
  });

  it('is what an unreachable upstream names', () => {
    expect(upstreamUnreachable('dashboards', 'https://dash.example.com:443').problem.detail).toBe(
      'The dashboards API could not be reached at https://dash.example.com:443.',
    );
  });
});

describe('upstreamReason', () => {
  it("reads each API's own error body", () => {
    const pipes = {
      status: 409,
      error: 'Pipe is Stopping: only a stopped pipe can be started',
      requestId: 'r',
    };
    expect(upstreamReason('pipes', pipes)).toBe('Pipe is Stopping: only a stopped pipe can be started');
    expect(upstreamReason('dashboards', { message: 'Body validation failed: name: Required' })).toBe(
      'Body validation failed: name: Required',
    );
    expect(upstreamReason('dashboards', 'Params validation failed: id: Invalid ObjectId')).toBe(
      'Params validation failed: id: Invalid ObjectId',
    );
  });

  it('gives none for a body without a reason', () => {
    for (const body of [null, '', '  ', { status: 409 }, { error: 42 }, ['x'], 7]) {
      expect(upstreamReason('pipes', body)).toBeNull();
    }
  });

  it('keeps a long or multi-line reason to one short line', () => {
    expect(upstreamReason('pipes', { error: 'first\n\tsecond  third' })).toBe('first second third');
    const long = upstreamReason('pipes', { error: `${'word '.repeat(200)}end` })!;
    expect(long).toHaveLength(MAX_REASON_CHARS);
    expect(long.endsWith('word…')).toBe(true);
  });
});

describe('upstreamClientError', () => {
  it('puts the reason in detail and keeps the body', () => {
    const body = { status: 409, error: 'Pipe is Stopping: only a stopped pipe can be started' };
    expect(upstreamClientError('pipes', { status: 409, body }).problem).toMatchObject({
      status: 409,
      detail: 'The pipes API refused: Pipe is Stopping: only a stopped pipe can be started',
      upstream: { status: 409, body },
    });
  });

  it('says to see the body when it holds no reason', () => {
    expect(upstreamClientError('dashboards', { status: 404, body: null }).problem.detail).toBe(
      'The dashboards API answered 404; see upstream.body.',
    );
  });
});
