/**
 * A tiny publish/subscribe for "new figures were stored". Sync (in the server or the CLI), imports
 * seen through the change watcher, and anything else that appends publish here; whoever must react
 * (rate alerts, caches) subscribes. Listeners run synchronously after the data is committed and
 * visible; one listener's exception is logged and does not stop the others.
 *
 *   const stop = runtime.dataEvents.subscribe((event) => evaluateAlerts(event));
 */
export interface DataAddedEvent {
  /** The import that added figures, or null when another process's commit was noticed. */
  importId: string | null;
  /** eia | fred | bls | ams | fmcsa, `<source>-sync` for an online fetch, or "external". */
  source: string;
  added: number;
  /** ms epoch when the figures were stored or noticed. */
  at: number;
}

export type DataAddedListener = (event: DataAddedEvent) => void;

export class DataEvents {
  private readonly listeners = new Set<DataAddedListener>();

  /** Calls `listener` after every commit that added figures; returns the unsubscribe function. */
  subscribe(listener: DataAddedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: DataAddedEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        console.error(`data-added listener failed: ${(error as Error).message}`);
      }
    }
  }
}
