import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeConsole, renderInConsole } from '../../test-support/console';
import { EventDetail, failureOf, targetLink } from './event-detail';
import type { AuditEvent } from './view';

const failed = {
  seq: 7,
  at: '2026-01-01T10:00:07.000Z',
  tenantId: 'tenant-1',
  actor: 'key:3f1e2d4c-0000-4000-8000-000000000000',
  onBehalfOf: null,
  action: 'dashboard.replace',
  target: 'dashboard:65f0c0ffee0000000000c0de',
  requestId: 'request-7',
  outcome: 'failed',
  httpStatus: 502,
  details: {
    problem: 'upstream-rejected-request',
    upstreamStatus: 400,
    detail: 'The dashboards API refused the request: tile 2 has no name.',
  },
  prevHash: '0'.repeat(64),
  hash: 'a'.repeat(64),
  chainKey: 'v1',
  prevDigest: null,
  digest: null,
} satisfies AuditEvent;

const offline = () => fakeConsole(() => null, ['DashboardsController_versions']);

describe("an audit event's detail", () => {
  it("shows why a failed event failed, in the upstream's words", () => {
    renderInConsole(<EventDetail row={{ event: failed, pending: null }} nameOf={() => null} />, offline());
    expect(
      screen.getByText(
        'The upstream answered 400: The dashboards API refused the request: tile 2 has no name.',
      ),
    ).toBeDefined();
  });

  it('says what it knows when the reason was not recorded', () => {
    expect(
      failureOf({ ...failed, details: { problem: 'upstream-rejected-request', upstreamStatus: 400 } }),
    ).toBe('The upstream answered 400 (upstream-rejected-request), without a reason.');
    expect(failureOf({ ...failed, outcome: 'succeeded' })).toBeNull();
  });

  it('shows names beside the ids they stand for', () => {
    const names: Record<string, string> = { [failed.actor]: 'ci deploy', [failed.target]: 'Checkout' };
    renderInConsole(
      <EventDetail
        row={{ event: failed, pending: null }}
        nameOf={(reference) => names[reference ?? ''] ?? null}
      />,
      offline(),
    );
    expect(screen.getByText('ci deploy')).toBeDefined();
    expect(screen.getByText('Checkout')).toBeDefined();
    expect(screen.getByText(`(${failed.target})`)).toBeDefined();
  });

  it('offers a link to the target only to whoever may open it', () => {
    const allowed =
      (...operations: string[]) =>
      (operation: string) =>
        operations.includes(operation);
    expect(targetLink('dashboard:d1', allowed('DashboardsController_versions'))?.to).toBe('#/dashboards/d1');
    expect(targetLink('dashboard:d1', allowed())).toBeNull();
    expect(targetLink('credential:c1', allowed('CredentialsController_list'))?.to).toBe('#/vault/c1');
    expect(targetLink('credential:c1', allowed('AuditController_list'))).toBeNull();
    expect(targetLink('pipe-spec:s1', allowed('PipeSpecHistoryController_get'))?.to).toBe('#/history/s1');
    expect(targetLink(null, allowed('DashboardsController_versions'))).toBeNull();
  });
});
