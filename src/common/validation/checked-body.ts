import { Body } from '@nestjs/common';
import { assertBody, type BodyCheck } from './json-schema';

/** A body whose shape is an upstream's, checked by its compiled schema; a 400 naming every path otherwise. */
export function CheckedBody(check: BodyCheck): ParameterDecorator {
  return Body({ transform: (value: unknown): unknown => assertBody(check, value) });
}
