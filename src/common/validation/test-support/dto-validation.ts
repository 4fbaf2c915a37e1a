import { Paramtype } from '@nestjs/common';
import { ProblemException, ProblemFieldError } from '../../problem/problem';
import { createValidationPipe } from '../../problem/validation';

/** Runs request DTOs through the gateway's real global ValidationPipe, as a request would. */
const pipe = createValidationPipe();

export async function validated<T extends object>(
  metatype: new () => T,
  value: unknown,
  type: Paramtype = 'body',
): Promise<T> {
  return (await pipe.transform(value, { type, metatype })) as T;
}

export interface Rejection {
  status: number;
  errors: ProblemFieldError[];
  paths: string[];
}

export async function rejection(
  metatype: new () => object,
  value: unknown,
  type: Paramtype = 'body',
): Promise<Rejection> {
  try {
    await pipe.transform(value, { type, metatype });
  } catch (error) {
    if (!(error instanceof ProblemException)) throw error;
    const errors = error.problem.errors ?? [];
    return { status: error.problem.status, errors, paths: [...new Set(errors.map((e) => e.path))] };
  }
  throw new Error(`expected ${metatype.name} to reject ${JSON.stringify(value)}`);
}

/** The field errors of the 400 validation problem `check` throws (e.g. a PlainParamsPipe's). */
export function validationErrorsOf(check: () => unknown): ProblemFieldError[] {
  try {
    check();
  } catch (error) {
    if (error instanceof ProblemException && error.problem.status === 400) return error.problem.errors ?? [];
    throw error;
  }
  throw new Error('expected a 400 validation problem');
}

/**
 * A deep copy of `value` with the field at `path` (written like an error path, e.g. `tiles[0].x`)
 * set to `replacement`, or removed when `replacement` is undefined.
 */
export function patched<T>(value: T, path: string, replacement: unknown): T {
  const copy = structuredClone(value);
  const keys = path.replace(/\[(\d+)\]/g, '.$1').split('.');
  const last = keys.pop() as string;
  let parent = copy as Record<string, unknown>;
  for (const key of keys) {
    parent[key] ??= {};
    parent = parent[key] as Record<string, unknown>;
  }
  if (replacement === undefined) delete parent[last];
  else parent[last] = replacement;
  return copy;
}
