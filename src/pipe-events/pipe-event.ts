import type { PipeLocation } from '../upstream/pipes-api.client';

export const PIPE_EVENT_TYPES = [
  'pipe.created',
  'pipe.updated',
  'pipe.deleted',
  'pipe.state',
  'pipe.scaling',
] as const;
export type PipeEventType = (typeof PIPE_EVENT_TYPES)[number];

/** What a subscriber receives as an event's data. */
export interface PipeEventData {
  pipeId: string;
  /** The pipe as it is now, secrets removed; absent for a deletion, or when too large to pass on. */
  pipe?: Record<string, unknown>;
  /** `gateway`: a write made through the gateway; `upstream`: a change found by polling. */
  source: 'gateway' | 'upstream';
}

/** An event as it travels between replicas: where it belongs, and its id, given once by its publisher. */
export interface PipeEvent {
  id: string;
  type: PipeEventType;
  tenantId: string;
  at: PipeLocation;
  data: PipeEventData;
  /** The replica that published it (not sent to readers); absent from events written by hand. */
  replica?: string;
}

/** The stream an event belongs to: a tenant's service. Ids only. */
export function streamKeyOf(tenantId: string, at: PipeLocation): string {
  return `${tenantId}/${at.organizationId}/${at.serviceId}`;
}
