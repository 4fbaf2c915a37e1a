interface AuditActionInfo {
  meaning: string;
  /** The kind of target its events name, as `<kind>:<id>`; null when they name none. */
  target: string | null;
  /** Its effect happens upstream: a `pending` event before the call, then the outcome, with the same requestId. */
  upstream: boolean;
}

/**
 * Every action the gateway appends to an audit log, with what it means. AuditEntry takes only
 * these names, GET /v1/audit/actions serves the list, and docs/security.md's table is checked
 * against it. An action once written stays here: old events keep their names.
 */
export const AUDIT_ACTIONS = {
  'tenant.create': { meaning: 'The platform created the tenant.', target: 'tenant', upstream: false },
  'key.create': {
    meaning: 'A gateway key was issued for the tenant, by the platform or a tenant admin.',
    target: 'key',
    upstream: false,
  },
  'key.revoke': {
    meaning: 'A gateway key was revoked: it opens nothing from then on.',
    target: 'key',
    upstream: false,
  },
  'group.assign': {
    meaning: "An identity-provider group was assigned to the tenant, so the tenant's admins may map it.",
    target: 'group',
    upstream: false,
  },
  'group.unassign': {
    meaning: 'A group was taken from the tenant, withdrawing the roles its mappings gave.',
    target: 'group',
    upstream: false,
  },
  'group-mapping.create': {
    meaning: "A group of the tenant was mapped to a role: the group's members sign in with it.",
    target: 'group-mapping',
    upstream: false,
  },
  'group-mapping.delete': {
    meaning: 'A group mapping was removed: its role is no longer given at sign-in.',
    target: 'group-mapping',
    upstream: false,
  },
  'credential.create': {
    meaning: 'A credential or vault secret was stored (its value encrypted, never recorded).',
    target: 'credential',
    upstream: false,
  },
  'credential.rotate': {
    meaning: "A credential's value was replaced by a new version.",
    target: 'credential',
    upstream: false,
  },
  'credential.delete': { meaning: 'A credential was deleted.', target: 'credential', upstream: false },
  'credential.use': {
    meaning: "The gateway's roll-up of a credential's upstream calls: how many, when, and by whom.",
    target: 'credential',
    upstream: false,
  },
  'credential.rejected': {
    meaning: 'An upstream refused a stored credential (401 or 403): it needs rotating.',
    target: 'credential',
    upstream: false,
  },
  'vault.value-echo': {
    meaning: "An upstream answer held a vault secret's value, and the gateway blanked it before answering.",
    target: null,
    upstream: false,
  },
  'pipe.create': {
    meaning:
      'A pipe created from a spec kept in the history; failed by the gateway itself when the create was interrupted.',
    target: 'pipe-spec',
    upstream: true,
  },
  'pipe.update': { meaning: "A pipe's fields changed.", target: 'pipe', upstream: true },
  'pipe.delete': {
    meaning: 'A pipe deleted; the history keeps its create spec.',
    target: 'pipe',
    upstream: true,
  },
  'pipe.state': { meaning: 'A pipe started, stopped or resynced.', target: 'pipe', upstream: true },
  'pipe.scale': { meaning: "A pipe's scaling changed.", target: 'pipe', upstream: true },
  'pipe.settings': { meaning: "A pipe's settings replaced.", target: 'pipe', upstream: true },
  'dashboard.create': {
    meaning: 'A dashboard created (the outcome names its id), its content kept as version 1.',
    target: 'dashboard',
    upstream: true,
  },
  'dashboard.replace': {
    meaning: 'A dashboard replaced, the content it replaced kept as a version.',
    target: 'dashboard',
    upstream: true,
  },
  'dashboard.delete': {
    meaning: 'A dashboard deleted, its content kept as a version.',
    target: 'dashboard',
    upstream: true,
  },
  'dashboard.restore': {
    meaning: 'A stored version of a dashboard put back, created again if it was gone.',
    target: 'dashboard',
    upstream: true,
  },
  'audit.prune': {
    meaning: "Retention removed the tenant's events older than the kept period: the chain starts later.",
    target: 'tenant',
    upstream: false,
  },
  'audit.review': {
    meaning:
      'An auditor signed off the log: the events from `fromSeq` through `throughSeq` were reviewed, with a note.',
    target: 'tenant',
    upstream: false,
  },
} as const satisfies Record<string, AuditActionInfo>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export type AuditTargetKind = NonNullable<(typeof AUDIT_ACTIONS)[AuditAction]['target']>;

export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

/**
 * The catalogue's actions under an action filter: the one named, or with a trailing dot (`credential.`)
 * every action that starts with it.
 */
export function actionsMatching(filter: string): string[] {
  return filter.endsWith('.') ? AUDIT_ACTION_NAMES.filter((name) => name.startsWith(filter)) : [filter];
}

export const AUDIT_TARGET_KINDS = [
  ...new Set(AUDIT_ACTION_NAMES.flatMap((name) => AUDIT_ACTIONS[name].target ?? [])),
] as AuditTargetKind[];

/** The catalogue as GET /v1/audit/actions answers it. */
export function auditActionList(): ({
  action: AuditAction;
  target: AuditTargetKind | null;
} & AuditActionInfo)[] {
  return AUDIT_ACTION_NAMES.map((action) => ({ action, ...AUDIT_ACTIONS[action] }));
}
