// What the per-process lookup caches share: a write of this process empties a cache (and, through the shared Redis,
// the same cache of every other process), and a lookup that overlapped a change does not keep what it read.
/** Tells other processes that a cache's rows changed; resolves once the message is sent (a failure is logged). */
export type ChangeBroadcast = () => Promise<void>;

export abstract class ClearedOnWrite {
  /** Moves on every clear: a lookup that started before a clear does not store what it read. */
  private generation = 0;
  private broadcast: ChangeBroadcast | null = null;
  /** How many writes of this process changed the cached rows (a transaction compares it before and after). */
  writes = 0;

  /** Sends every local change to the other processes from now on. */
  broadcastTo(broadcast: ChangeBroadcast): void {
    this.broadcast = broadcast;
  }

  /** Empties this process's cache only (a change another process reported). */
  clear(): void {
    this.generation++;
    this.empty();
  }

  /** The cached rows changed here: empties the cache and tells the other processes. */
  async changed(): Promise<void> {
    this.writes++;
    this.clear();
    await this.broadcast?.();
  }

  /** What `load` found, handed to `keep` unless the cache was emptied while it read (unknown keys are not kept). */
  protected async loadAndKeep<T>(load: () => Promise<T>, keep: (found: NonNullable<T>) => void): Promise<T> {
    const started = this.generation;
    const found = await load();
    if (found !== null && found !== undefined && started === this.generation) keep(found);
    return found;
  }

  protected abstract empty(): void;
}
