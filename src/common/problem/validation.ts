import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ProblemException, ProblemFieldError } from './problem';
import { cacheValidationMetadata } from '../validation/metadata-cache';

/** The one way every input check names a field the route does not know. */
export function unknownField(path: string): ProblemFieldError {
  return { path, message: 'is not a known field' };
}

/** Flattens class-validator's tree into one `{path, message}` per broken rule, paths dotted. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): ProblemFieldError[] {
  return errors.flatMap((error) => {
    const path =
      parent === ''
        ? error.property
        : /^\d+$/.test(error.property)
          ? `${parent}[${error.property}]`
          : `${parent}.${error.property}`;
    const own = Object.values(error.constraints ?? {}).map((message) =>
      message.startsWith('property ') && message.endsWith(' should not exist')
        ? unknownField(path)
        : { path, message },
    );
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
  cacheValidationMetadata();
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
