import { ConfigService } from '@nestjs/config';
import { ProblemException } from '../common/problem/problem';
import { type AppConfig, loadConfig } from '../config/app-config';
import type { UpstreamCredentials } from '../credentials/upstream-credentials';
import type { VaultValues } from '../credentials/vault-values';
import { upstreamClientError, upstreamServerError } from '../upstream/upstream-errors';
import { PipeReads, type PipeReadAnswer } from './pipe-reads.service';
import { SharedReads } from './shared-reads';

const AT = { organizationId: 'org', serviceId: 'service' };
const PIPE = { kind: 'pipe', pipeId: 'p-1' } as const;

function pipeReads(cacheMs: number): PipeReads {
  const config = new ConfigService<AppConfig, true>(loadConfig({ PIPE_READ_CACHE_MS: String(cacheMs) }));
  // The reads only ask the vault's identity, which keys what they keep.
  const credentials = {
    vaultValues: () => ({ identity: 'vault-1' }) as VaultValues,
  } as unknown as UpstreamCredentials;
  return new PipeReads(credentials, new SharedReads(config), config);
}

const notFound = () =>
  upstreamClientError('pipes', { status: 404, requestId: 'up-1', body: { message: 'Pipe not found' } });

/** The problem a read threw. */
async function problemOf(read: Promise<unknown>): Promise<ProblemException> {
  const error: unknown = await read.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProblemException);
  return error as ProblemException;
}

describe('PipeReads: an id the upstream answered 404 for', () => {
  it('is kept as such for the cache lifetime: read again, it costs no upstream call', async () => {
    const reads = pipeReads(300);
    const fetch = jest.fn((): Promise<PipeReadAnswer> => Promise.reject(notFound()));
    const first = await problemOf(reads.read('t', AT, PIPE, fetch));
    const again = await problemOf(reads.read('t', AT, PIPE, fetch));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(again.problem).toEqual(first.problem);
    expect(again.problem).toMatchObject({ status: 404, upstream: { status: 404 } });
    // Another tenant's read of the same id is its own.
    await problemOf(reads.read('other', AT, PIPE, fetch));
    expect(fetch).toHaveBeenCalledTimes(2);

    await new Promise((resolve) => setTimeout(resolve, 350));
    await problemOf(reads.read('t', AT, PIPE, fetch));
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('is dropped by a write to its service, as kept answers are', async () => {
    const reads = pipeReads(10_000);
    const fetch = jest
      .fn<Promise<PipeReadAnswer>, []>()
      .mockRejectedValueOnce(notFound())
      .mockResolvedValueOnce({ status: 200, body: { result: { id: 'p-1' } } });
    await problemOf(reads.read('t', AT, PIPE, fetch));
    await reads.written({ tenantId: 't', at: AT, action: 'create', pipeId: 'p-1', answer: {} });
    await expect(reads.read('t', AT, PIPE, fetch)).resolves.toMatchObject({ status: 200 });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('keeps no other failure', async () => {
    const reads = pipeReads(10_000);
    const fetch = jest.fn((): Promise<PipeReadAnswer> =>
      Promise.reject(upstreamServerError('pipes', { status: 500, body: null })),
    );
    await problemOf(reads.read('t', AT, PIPE, fetch));
    await problemOf(reads.read('t', AT, PIPE, fetch));
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
