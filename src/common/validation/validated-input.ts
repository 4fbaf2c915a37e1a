import { Body, Query } from '@nestjs/common';
import { createValidationPipe } from '../problem/validation';
import { assertBody, type BodyCheck } from './json-schema';

/**
 * Validation is declared on each input that needs it instead of installed as a global pipe. A
 * global pipe runs on every parameter of every request, the principal and the reply included; on
 * a proxied read that machinery was a large share of all the request allocated. Path parameters and
 * the dashboards' query use `PlainParamsPipe`; test/security/input-validation.e2e-spec.ts holds
 * every route to refusing what it does not know.
 */
const validation = createValidationPipe();

/** The body as its DTO class, or a 400 validation problem naming every broken rule. */
export function ValidatedBody(): ParameterDecorator {
  return Body(validation);
}

/** The query string as its DTO class, or a 400 validation problem naming every broken rule. */
export function ValidatedQuery(): ParameterDecorator {
  return Query(validation);
}

/** A body whose shape is an upstream's, checked by its compiled schema; a 400 naming every path otherwise. */
export function CheckedBody(check: BodyCheck): ParameterDecorator {
  return Body({ transform: (value: unknown): unknown => assertBody(check, value) });
}
