/**
 * `value`, narrowed to present, or an error naming `what` was missing: for a lookup the test knows
 * must succeed, so a failure says which one instead of a TypeError on `undefined` further on.
 */
export function defined<T>(value: T, what: string): NonNullable<T> {
  if (value === undefined || value === null) throw new Error(`expected ${what} to be present, got ${value}`);
  return value;
}
