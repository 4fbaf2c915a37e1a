import type { PipeTransform } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { ProblemFieldError } from '../problem/problem';
import { unknownField, validationProblem } from '../problem/validation';

export interface ParamRule<T> {
  /** The value the handler gets, or undefined when `raw` breaks the rule. */
  parse(raw: string): T | undefined;
  /** What is wrong with a value that breaks it (the parameter's name is reported beside it). */
  message: string;
  optional?: boolean;
}

export const uuidRule: ParamRule<string> = {
  parse: (raw) => (isUUID(raw, 'all') ? raw : undefined),
  message: 'must be a UUID',
};

export function optional<T>(rule: ParamRule<T>): ParamRule<T> {
  return { ...rule, optional: true };
}

/**
 * Path or query parameters checked by a rule each, every broken rule reported at once as a 400
 * validation problem, names the route does not know refused. On a proxied read, class-transformer
 * and class-validator cost more CPU than checking a few ids needs (bench/README.md, "What the
 * code's choices buy").
 */
export class PlainParamsPipe<T extends object> implements PipeTransform<Record<string, unknown>, T> {
  private readonly names: string[];

  constructor(private readonly rules: { [K in keyof T]: ParamRule<T[K]> }) {
    this.names = Object.keys(rules);
  }

  transform(raw: Record<string, unknown>): T {
    const errors: ProblemFieldError[] = [];
    const result: Record<string, unknown> = {};
    for (const name of Object.keys(raw)) {
      if (!Object.hasOwn(this.rules, name)) errors.push(unknownField(name));
    }
    for (const name of this.names) {
      const rule = (this.rules as Record<string, ParamRule<unknown>>)[name];
      const value = Object.hasOwn(raw, name) ? raw[name] : undefined;
      if (value === undefined && rule.optional) continue;
      // A repeated query parameter arrives as an array: never one valid value.
      const parsed = typeof value === 'string' ? rule.parse(value) : undefined;
      if (parsed === undefined) errors.push({ path: name, message: rule.message });
      else result[name] = parsed;
    }
    if (errors.length > 0) throw validationProblem(errors);
    return result as T;
  }
}
