import { validationErrorsOf } from '../../../test/fixtures/dto-validation';
import { optional, PlainParamsPipe, uuidRule } from './plain-params';

const ORGANIZATION_ID = '0b6f3c1e-8a4d-4f2b-9c7e-1d2a3b4c5d6e';
const SERVICE_ID = '01890f4e-7b3c-7d2a-8e1f-0a1b2c3d4e5f';
const PIPE_ID = 'c9bf9e57-1685-4c89-bafb-ff5af830be8a';

const pipePath = new PlainParamsPipe<{ organizationId: string; serviceId: string; pipeId: string }>({
  organizationId: uuidRule,
  serviceId: uuidRule,
  pipeId: uuidRule,
});

describe('PlainParamsPipe', () => {
  it('passes UUIDs of any version and nothing else through', () => {
    const params = { organizationId: ORGANIZATION_ID, serviceId: SERVICE_ID, pipeId: PIPE_ID };
    expect(pipePath.transform(params)).toEqual(params);
    expect(pipePath.transform({ ...params })).not.toBe(params);
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
  ])('rejects the pipe id %j by name', (pipeId) => {
    expect(
      validationErrorsOf(() =>
        pipePath.transform({ organizationId: ORGANIZATION_ID, serviceId: SERVICE_ID, pipeId }),
      ),
    ).toEqual([{ path: 'pipeId', message: 'must be a UUID' }]);
  });

  it('names each parameter that is not a UUID, and each missing one', () => {
    expect(
      validationErrorsOf(() => pipePath.transform({ organizationId: 'org', serviceId: '..%2F..' })),
    ).toEqual([
      { path: 'organizationId', message: 'must be a UUID' },
      { path: 'serviceId', message: 'must be a UUID' },
      { path: 'pipeId', message: 'must be a UUID' },
    ]);
  });

  it('refuses names it has no rule for, inherited ones included', () => {
    const pipe = new PlainParamsPipe<{ id?: string }>({ id: optional(uuidRule) });
    expect(validationErrorsOf(() => pipe.transform({ other: 'x', hasOwnProperty: 'x' }))).toEqual([
      { path: 'other', message: 'is not a known field' },
      { path: 'hasOwnProperty', message: 'is not a known field' },
    ]);
  });

  it('leaves an optional parameter out when it is not sent, and checks it when it is', () => {
    const pipe = new PlainParamsPipe<{ id?: string }>({ id: optional(uuidRule) });
    expect(pipe.transform({})).toEqual({});
    expect(validationErrorsOf(() => pipe.transform({ id: ['a', 'b'] }))).toEqual([
      { path: 'id', message: 'must be a UUID' },
    ]);
  });
});
