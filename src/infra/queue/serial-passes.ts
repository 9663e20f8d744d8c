// Background work done in passes, one at a time: asking while a pass runs asks for one more pass after it, so work
// that arrives during a pass is never missed and passes never overlap.
export interface SerialPassesOptions {
  /** Asked before each pass; once false (stopped, closed), no pass starts. */
  readonly enabled: () => boolean;
  readonly onError: (error: unknown) => void;
}

export class SerialPasses {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly options: SerialPassesOptions,
  ) {}

  request(): void {
    if (!this.options.enabled()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch(this.options.onError)
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.request();
        }
      });
  }

  /** Resolves once no pass runs, including one asked for meanwhile. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}
