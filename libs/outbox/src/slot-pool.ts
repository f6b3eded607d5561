/**
 * Work running in the background, at most `size` pieces at a time: a worker's requests to endpoints it
 * does not control (webhooks, payment providers). Each piece frees its slot when it ends, whatever the
 * others do, so one slow endpoint holds its own slot and never the rest; the `whenFree` listener hears
 * of each freed slot (a polling loop wakes with it to take more work at once).
 *
 * A piece of work must settle and never reject: it records its own outcome and logs its own errors.
 */
export class SlotPool {
  private readonly running = new Set<Promise<void>>();
  private freed: () => void = () => {};

  constructor(readonly size: number) {}

  /** Slots free now. */
  get free(): number {
    return this.size - this.running.size;
  }

  whenFree(listener: () => void): void {
    this.freed = listener;
  }

  /** Resolves at once when a slot is free, else when the first piece running ends. */
  async slot(): Promise<void> {
    if (this.running.size >= this.size) await Promise.race(this.running);
  }

  start(work: Promise<void>): void {
    const running: Promise<void> = work.finally(() => {
      this.running.delete(running);
      this.freed();
    });
    this.running.add(running);
  }

  /** Resolves when every piece started so far has ended (on shutdown). */
  async drain(): Promise<void> {
    await Promise.all(this.running);
  }
}
