export const ROLES = ['admin', 'operator', 'viewer', 'auditor'] as const;
export type Role = (typeof ROLES)[number];

// admin ⊇ operator ⊇ viewer. auditor stands apart: reviewing the log is kept separate from
// changing what it records, so an admin key cannot read the audit log unless it also has auditor.
const IMPLIED: Record<Role, Role[]> = {
  admin: ['admin', 'operator', 'viewer'],
  operator: ['operator', 'viewer'],
  viewer: ['viewer'],
  auditor: ['auditor'],
};

/** Whether a key holding `held` may call a route that needs `needed`. */
export function grants(held: readonly Role[], needed: Role): boolean {
  return held.some((role) => IMPLIED[role].includes(needed));
}

/** Whether a key holding `held` may call a route open to any of `needed`. */
export function grantsAny(held: readonly Role[], needed: readonly Role[]): boolean {
  return needed.some((role) => grants(held, role));
}
