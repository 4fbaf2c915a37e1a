import { rejection, validated } from '../../common/validation/test-support/dto-validation';
import { DashboardIdParamDto, DashboardQueryDto } from './dashboard-params.dto';

const ID_MESSAGE = 'must be 1 to 64 letters, digits, "-" or "_"';

describe('DashboardIdParamDto', () => {
  it.each(['65a1b2c3d4e5f60718293a4b', 'checkout-overview_2', 'A', 'x'.repeat(64)])(
    'accepts %s',
    async (id) => {
      await expect(validated(DashboardIdParamDto, { id }, 'param')).resolves.toEqual({ id });
    },
  );

  it.each([
    ['../x'],
    ['..'],
    ['x'.repeat(65)],
    [''],
    ['a/b'],
    ['a%2Fb'],
    ['a b'],
    ['a.b'],
    ['dash?x=1'],
    ['tableau-ü'],
  ])('rejects %j', async (id) => {
    const { status, errors } = await rejection(DashboardIdParamDto, { id }, 'param');
    expect(status).toBe(400);
    expect(errors).toEqual([{ path: 'id', message: ID_MESSAGE }]);
  });
});

describe('DashboardQueryDto', () => {
  it('accepts no credential id and a UUID', async () => {
    await expect(validated(DashboardQueryDto, {}, 'query')).resolves.toBeInstanceOf(DashboardQueryDto);
    const query = { credentialId: '3f0e9a52-6b1d-4c8e-9f7a-2b3c4d5e6f70' };
    await expect(validated(DashboardQueryDto, query, 'query')).resolves.toEqual(query);
  });

  it.each([
    ['abc'],
    [''],
    [['3f0e9a52-6b1d-4c8e-9f7a-2b3c4d5e6f70', '3f0e9a52-6b1d-4c8e-9f7a-2b3c4d5e6f71']],
  ])('rejects the credential id %j', async (credentialId) => {
    const { errors } = await rejection(DashboardQueryDto, { credentialId }, 'query');
    expect(errors).toEqual([{ path: 'credentialId', message: 'credentialId must be a UUID' }]);
  });

  it('rejects unknown query parameters', async () => {
    const { errors } = await rejection(DashboardQueryDto, { credential: 'x' }, 'query');
    expect(errors).toEqual([{ path: 'credential', message: 'is not a known field' }]);
  });
});
