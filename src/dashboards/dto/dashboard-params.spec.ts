import { validationErrorsOf } from '../../../test/fixtures/dto-validation';
import { dashboardPathParams, dashboardQueryParams, dashboardVersionPathParams } from './dashboard-params';

const ID_MESSAGE = 'must be 1 to 64 letters, digits, "-" or "_"';

describe('dashboard path parameters', () => {
  it.each(['65a1b2c3d4e5f60718293a4b', 'checkout-overview_2', 'A', 'x'.repeat(64)])(
    'accepts the id %s',
    (id) => {
      expect(dashboardPathParams.transform({ id })).toEqual({ id });
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
  ])('rejects the id %j', (id) => {
    expect(validationErrorsOf(() => dashboardPathParams.transform({ id }))).toEqual([
      { path: 'id', message: ID_MESSAGE },
    ]);
  });

  it.each([
    ['1', 1],
    ['42', 42],
    ['2147483647', 2_147_483_647],
  ])('reads the version %s as a number', (n, expected) => {
    expect(dashboardVersionPathParams.transform({ id: 'd', n })).toEqual({ id: 'd', n: expected });
  });

  it.each([['0'], ['-1'], ['01'], ['1.5'], ['1e3'], ['zero'], [''], [' 1'], ['2147483648'], ['99999999999']])(
    'rejects the version %j',
    (n) => {
      expect(validationErrorsOf(() => dashboardVersionPathParams.transform({ id: 'd', n }))).toEqual([
        { path: 'n', message: 'must be a whole number from 1 to 2147483647' },
      ]);
    },
  );

  it('names every broken parameter at once', () => {
    expect(validationErrorsOf(() => dashboardVersionPathParams.transform({ id: '..', n: '0' }))).toEqual([
      { path: 'id', message: ID_MESSAGE },
      { path: 'n', message: 'must be a whole number from 1 to 2147483647' },
    ]);
  });
});

describe('dashboard query parameters', () => {
  it('accepts no credential id and a UUID', () => {
    expect(dashboardQueryParams.transform({})).toEqual({});
    const query = { credentialId: '3f0e9a52-6b1d-4c8e-9f7a-2b3c4d5e6f70' };
    expect(dashboardQueryParams.transform(query)).toEqual(query);
  });

  it.each([
    ['abc'],
    [''],
    [['3f0e9a52-6b1d-4c8e-9f7a-2b3c4d5e6f70', '3f0e9a52-6b1d-4c8e-9f7a-2b3c4d5e6f71']],
  ])('rejects the credential id %j', (credentialId) => {
    expect(validationErrorsOf(() => dashboardQueryParams.transform({ credentialId }))).toEqual([
      { path: 'credentialId', message: 'must be a UUID' },
    ]);
  });

  it.each(['credential', 'constructor', '__proto__', 'toString'])(
    'rejects the unknown query parameter %j',
    (name) => {
      const query = JSON.parse(`{"${name}":"x"}`) as Record<string, unknown>;
      expect(validationErrorsOf(() => dashboardQueryParams.transform(query))).toEqual([
        { path: name, message: 'is not a known field' },
      ]);
    },
  );
});
