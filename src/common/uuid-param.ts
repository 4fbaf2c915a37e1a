import { ParseUUIDPipe } from '@nestjs/common';
import { validationProblem } from './problem/validation';

/** A path parameter that must be a UUID; a 400 problem names it otherwise. */
export function uuidParam(name: string): ParseUUIDPipe {
  return new ParseUUIDPipe({
    exceptionFactory: () => validationProblem([{ path: name, message: 'must be a UUID' }]),
  });
}
