import { vaultVersionOf } from './vault-values';

describe('vaultVersionOf', () => {
  const a = { id: '0b7f3c1e-0000-4c8e-9f10-000000000001', version: 1 };
  const b = { id: '0b7f3c1e-0000-4c8e-9f10-000000000002', version: 3 };

  it('names the same credentials alike in any order, and holds neither ids nor secrets', () => {
    expect(vaultVersionOf([a, b])).toBe(vaultVersionOf([b, a]));
    expect(vaultVersionOf([a, b])).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('changes when a credential is rotated, created or deleted', () => {
    const before = vaultVersionOf([a, b]);
    expect(vaultVersionOf([a, { ...b, version: 4 }])).not.toBe(before);
    expect(vaultVersionOf([a, b, { id: '0b7f3c1e-0000-4c8e-9f10-000000000003', version: 1 }])).not.toBe(
      before,
    );
    expect(vaultVersionOf([a])).not.toBe(before);
    expect(vaultVersionOf([])).not.toBe(vaultVersionOf([a]));
  });
});
