import type { components } from '../../../../clients/typescript/src';
import { Badge, Time } from '../../components/common';

type SinkState = components['schemas']['AuditSinkStateView'];

const KIND: Record<SinkState['kind'], string> = { syslog: 'Syslog', webhook: 'Webhook' };

/** How late a sink is, in words. */
function lateness(seconds: number): string {
  if (seconds === 0) return 'up to date';
  if (seconds < 120) return `${seconds} s behind`;
  return `${Math.round(seconds / 60)} min behind`;
}

/**
 * Whether the log reaches the copies kept outside the gateway: each sink failing or delivering,
 * how late, and when it last delivered. Why one fails is for the platform operator to see.
 */
export function SinkStates({ sinks }: { sinks: SinkState[] }) {
  if (sinks.length === 0) {
    return (
      <p className="muted sink-states">
        Copies outside the gateway: none. The log is kept in the gateway's database only (no syslog or webhook
        sink is configured).
      </p>
    );
  }
  return (
    <ul className="sink-states" aria-label="Copies of the log outside the gateway">
      {sinks.map((sink) => (
        <li key={sink.kind}>
          {KIND[sink.kind]} copy:{' '}
          {sink.failing ? (
            <>
              <Badge text="failing" tone="bad" /> since <Time at={sink.lastErrorAt} />,{' '}
              {lateness(sink.secondsBehind)}; the platform operator sees why.
            </>
          ) : (
            <>
              <Badge text="delivering" tone="good" /> {lateness(sink.secondsBehind)}, last delivery{' '}
              <Time at={sink.lastDeliveryAt} />.
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
