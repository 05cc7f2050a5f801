/** Milliseconds since the Unix epoch. Injected everywhere time matters so tests can cross minute and month boundaries. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private current: number) {}
  now(): number {
    return this.current;
  }
  set(at: number | string | Date): void {
    this.current = typeof at === "number" ? at : new Date(at).getTime();
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
