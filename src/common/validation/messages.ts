/**
 * The words of every field error, shared by the JSON Schema checks of upstream bodies and the
 * class-validator rules of the gateway's own DTOs, so a caller reads one wording everywhere. The
 * path is reported beside the message, so a message never repeats the field's name.
 */

export const REQUIRED = 'is required';

export type ValueType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

const TYPE_NAMES: Record<ValueType, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
};

export function typeMessage(type: string, nullable = false): string {
  return typesMessage([type], nullable);
}

/** The message for a value that may be of any of `types`: `must be an integer, a string or null`. */
export function typesMessage(types: readonly string[], nullable = false): string {
  const names = [
    ...types.map((type) => TYPE_NAMES[type as ValueType] ?? type),
    ...(nullable ? ['null'] : []),
  ];
  const last = names.pop();
  // A comma before the last `or` when a name holds one itself (`true or false`).
  const separator = names.some((name) => name.includes(' or ')) ? ', or ' : ' or ';
  return names.length === 0 ? `must be ${last}` : `must be ${names.join(', ')}${separator}${last}`;
}

export function oneOfMessage(values: readonly unknown[]): string {
  return `must be one of ${values.map(String).join(', ')}`;
}

export function rangeMessage(integer: boolean, minimum?: number, maximum?: number): string {
  const kind = integer ? 'a whole number' : 'a number';
  if (minimum !== undefined && maximum !== undefined) return `must be ${kind} from ${minimum} to ${maximum}`;
  return minimum !== undefined
    ? `must be ${kind} of at least ${minimum}`
    : `must be ${kind} of at most ${maximum}`;
}

export const NOT_EMPTY = 'must not be empty';
export const atMostCharacters = (max: number): string => `must be at most ${max} characters long`;
export const atLeastItems = (min: number): string => `must have at least ${min} item${min === 1 ? '' : 's'}`;
export const atMostItems = (max: number): string => `must have at most ${max} items`;

/** Why a text of `length` characters breaks `min`..`max`, or null when it does not. */
export function lengthProblem(length: number, min: number, max: number): string | null {
  if (length === 0 && min > 0) return NOT_EMPTY;
  if (length < min) return `must be at least ${min} characters long`;
  if (length > max) return atMostCharacters(max);
  return null;
}

/** Why a list of `count` items breaks `min`..`max`, or null when it does not. */
export function itemCountProblem(count: number, min: number, max: number): string | null {
  if (count < min) return atLeastItems(min);
  if (count > max) return atMostItems(max);
  return null;
}
