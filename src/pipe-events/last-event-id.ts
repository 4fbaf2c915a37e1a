import { validationProblem } from '../common/problem/validation';

// The ids the gateway gives: base-36 time, replica and sequence, joined by "-".
const LAST_EVENT_ID = /^[0-9a-z-]{1,64}$/;

/** Last-Event-ID, checked; null when absent. */
export function lastEventIdHeader(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (!LAST_EVENT_ID.test(value)) {
    throw validationProblem([
      {
        path: 'header:Last-Event-ID',
        message: 'must be the id of an event this stream sent: 1 to 64 lower-case letters, digits and "-"',
      },
    ]);
  }
  return value;
}
