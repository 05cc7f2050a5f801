/**
 * Steps that are synchronous unless one of them returns a promise: the SQLite group commit stays
 * one synchronous call (no event-loop turn inside the transaction) while its writes are synchronous,
 * and the same code awaits writes that are not.
 */
export type MaybePromise<T> = T | Promise<T>;

export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** `next(value)` now if `value` is ready, else once it is; a throw or rejection goes to `onError`. */
export function andThen<T, U>(
  value: MaybePromise<T>,
  next: (value: T) => MaybePromise<U>,
  onError?: (error: unknown) => MaybePromise<U>,
): MaybePromise<U> {
  if (isPromise(value)) return onError ? value.then(next, onError) : value.then(next);
  if (!onError) return next(value);
  try {
    const result = next(value);
    return isPromise(result) ? result.catch(onError) : result;
  } catch (error) {
    return onError(error);
  }
}

/** Run `step` over `items` in order, each after the previous one finished. */
export function eachInTurn<T>(items: Iterable<T>, step: (item: T) => MaybePromise<void>): MaybePromise<void> {
  return eachLeft(items[Symbol.iterator](), step);
}

function eachLeft<T>(items: Iterator<T>, step: (item: T) => MaybePromise<void>): MaybePromise<void> {
  for (let next = items.next(); !next.done; next = items.next()) {
    const result = step(next.value);
    if (isPromise(result)) return result.then(() => eachLeft(items, step));
  }
}

/**
 * Steps written once as a generator that `yield* wait(…)`s each storage call: run by `runSteps`,
 * they stay synchronous while every call answers at once (the SQLite file) and continue
 * asynchronously from the first call that returns a promise (PostgreSQL).
 */
// biome-ignore lint/suspicious/noExplicitAny: each wait() types its own result; the generator passes values through
export type Steps<R> = Generator<unknown, R, any>;

export function* wait<T>(value: MaybePromise<T>): Generator<MaybePromise<T>, T, T> {
  return yield value;
}

export function runSteps<R>(steps: Steps<R>): MaybePromise<R> {
  return continueSteps(steps, () => steps.next());
}

function continueSteps<R>(steps: Steps<R>, resume: () => IteratorResult<unknown, R>): MaybePromise<R> {
  let step = resume();
  while (!step.done) {
    const value = step.value;
    if (isPromise(value)) {
      return value.then(
        (resolved) => continueSteps(steps, () => steps.next(resolved)),
        (error) => continueSteps(steps, () => steps.throw(error)),
      );
    }
    step = steps.next(value);
  }
  return step.value;
}

/** `run()` between `before()` and `after()`; `after` also runs when `run` throws, and only once it settles when it returns a promise. */
export function bracketed<T>(before: () => void, run: () => T, after: () => void): T {
  before();
  let result: T;
  try {
    result = run();
  } catch (error) {
    after();
    throw error;
  }
  if (!isPromise(result)) {
    after();
    return result;
  }
  return result.finally(after) as T;
}
