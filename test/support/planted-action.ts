import type { AuditAction } from '../../src/audit/audit-actions';

/**
 * An action no gateway code appends, for tests that plant events of their own: told apart from the
 * gateway's, or arbitrary text the chain must take all the same. Only tests step past the catalogue.
 */
export function plantedAction(name: string): AuditAction {
  return name as AuditAction;
}
