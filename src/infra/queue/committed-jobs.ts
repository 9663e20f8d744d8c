// Tells the job queue that job rows became visible: after the transaction that wrote them commits, or at once when
// one was written outside a transaction. The Redis queue relays them then; the database queue looks for due jobs.
export class CommittedJobs {
  private readonly listeners = new Set<() => void>();

  /** Calls `listener` after each commit that wrote jobs; the function returned unsubscribes. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(): void {
    for (const listener of this.listeners) listener();
  }
}
