/**
 * How history and audit record who acted (`actor`): `key:<id>` for a gateway key, `user:<email>`
 * for a signed-in person whose address the issuer verified, `user-sub:<sub>` for any other
 * signed-in person, and `platform`, `cli`, `sandbox` or `gateway` (the gateway's own jobs).
 */
const ACTOR_PREFIXES = ['key:', 'user:', 'user-sub:'];
const NAMED_ACTORS = ['platform', 'cli', 'sandbox', 'gateway'];

/** The forms, for API documentation. */
export const ACTOR_FORMS =
  '`key:<id>`, `user:<email>` (a verified address), `user-sub:<sub>`, `platform`, `cli`, `sandbox` or `gateway`';

/** Whether `text` is written in one of the actor forms (in any case), as a caller's text must not be. */
export function readsAsActor(text: string): boolean {
  const lower = text.toLowerCase();
  return ACTOR_PREFIXES.some((prefix) => lower.startsWith(prefix)) || NAMED_ACTORS.includes(lower);
}
