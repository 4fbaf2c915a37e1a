import { PipeIdPathParamsDto, PipePathParamsDto } from './pipe-path-params.dto';
import { rejection, validated } from '../../common/validation/test-support/dto-validation';

const ORGANIZATION_ID = '0b6f3c1e-8a4d-4f2b-9c7e-1d2a3b4c5d6e';
const SERVICE_ID = '01890f4e-7b3c-7d2a-8e1f-0a1b2c3d4e5f';
const PIPE_ID = 'c9bf9e57-1685-4c89-bafb-ff5af830be8a';

describe('pipe path parameters', () => {
  it('accepts UUIDs of any version', async () => {
    const params = { organizationId: ORGANIZATION_ID, serviceId: SERVICE_ID, pipeId: PIPE_ID };
    await expect(validated(PipeIdPathParamsDto, params, 'param')).resolves.toEqual(params);
    await expect(
      validated(PipePathParamsDto, { organizationId: SERVICE_ID, serviceId: ORGANIZATION_ID }, 'param'),
    ).resolves.toBeInstanceOf(PipePathParamsDto);
  });

  it.each([
    ['not-a-uuid'],
    ['../x'],
    [''],
    [`${PIPE_ID}/settings`],
    [`{${PIPE_ID}}`],
    [PIPE_ID.replace(/-/g, '')],
    ['c9bf9e57-1685-4c89-bafb-ff5af830be8'],
    ['g9bf9e57-1685-4c89-bafb-ff5af830be8a'],
  ])('rejects the pipe id %j by name', async (pipeId) => {
    const { status, errors } = await rejection(
      PipeIdPathParamsDto,
      { organizationId: ORGANIZATION_ID, serviceId: SERVICE_ID, pipeId },
      'param',
    );
    expect(status).toBe(400);
    expect(errors).toEqual([{ path: 'pipeId', message: 'pipeId must be a UUID' }]);
  });

  it('names each parameter that is not a UUID', async () => {
    const { paths } = await rejection(
      PipeIdPathParamsDto,
      { organizationId: 'org', serviceId: '..%2F..', pipeId: PIPE_ID },
      'param',
    );
    expect(paths).toEqual(['organizationId', 'serviceId']);
  });
});
