import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ProblemException, ProblemFieldError } from './problem';

/** The one way every input check names a field the route does not know. */
export function unknownField(path: string): ProblemFieldError {
  return { path, message: 'is not a known field' };
}

/**
 * Flattens class-validator's tree into one `{path, message}` per field, paths dotted: a field the
 * route does not know is reported as such, otherwise by its first broken rule (each field of a
 * gateway DTO has one rule, which reports the most basic problem; see validation-decorators.ts).
 */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): ProblemFieldError[] {
  return errors.flatMap((error) => {
    const path =
      parent === ''
        ? error.property
        : /^\d+$/.test(error.property)
          ? `${parent}[${error.property}]`
          : `${parent}.${error.property}`;
    const constraints = error.constraints ?? {};
    const first = Object.values(constraints)[0];
    const own =
      'whitelistValidation' in constraints
        ? [unknownField(path)]
        : first === undefined
          ? []
          : [{ path, message: first }];
    return [...own, ...flattenValidationErrors(error.children ?? [], path)];
  });
}

export function validationProblem(
  errors: ProblemFieldError[],
  detail = 'The request is not valid; see errors.',
): ProblemException {
  return new ProblemException({
    status: 400,
    type: 'validation-failed',
    title: 'Validation failed',
    detail,
    errors,
  });
}

/** Global validation: strip nothing silently, reject unknown fields, transform to DTO classes. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => validationProblem(flattenValidationErrors(errors)),
  });
}
