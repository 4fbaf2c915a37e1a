import type { FormEvent } from 'react';
import type { Pipe } from './pipe-states';
import { answer, newIdempotencyKey, type GatewayClient } from './gateway';
import { formText } from './form';

/**
 * Submits a kept pipe spec again from a form with the new pipe's `name`; resolves to the pipe
 * created, or rejects with why the gateway refused it.
 */
export function resubmitSpec(
  client: GatewayClient,
  recordId: string,
  event: FormEvent<HTMLFormElement>,
): Promise<Pipe> {
  event.preventDefault();
  const name = formText(new FormData(event.currentTarget), 'name') || undefined;
  return answer(
    client.POST('/v1/history/pipe-specs/{id}/resubmit', {
      params: { path: { id: recordId }, header: { 'Idempotency-Key': newIdempotencyKey() } },
      body: { name },
    }),
  ).then((created) => created.result);
}
