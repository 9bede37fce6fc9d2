/**
 * The idle engine's sleep: until the next poll, or sooner when woken. A wake-up while awake is
 * kept, so the next sleep returns at once rather than miss deliveries queued meanwhile.
 */

/**
 * Sleeps that a wake-up ends early. The busy loop sleeps once per attempt (until a slot frees), so
 * the poll's timer is kept armed across sleeps rather than set and cleared each time: a sleep that
 * starts while it is pending ends when it fires, at most `ms` from now, which is only an early poll.
 */
export class WakeableSleep {
  private sleeping: { resolve: () => void } | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private woken = false;

  /**
   * Resolves after `ms` (or sooner, at the poll of a sleep before it), on a wake-up, when `until`
   * resolves (the sleep then ends, so a later wake-up is kept), or at once when woken since the
   * last sleep.
   */
  sleep(ms: number, until?: Promise<unknown>): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const sleeping = { resolve };
      this.sleeping = sleeping;
      this.timer ??= setTimeout(() => {
        this.timer = null;
        if (this.sleeping) this.endSleep();
      }, ms);
      void until?.then(() => {
        if (this.sleeping === sleeping) this.endSleep();
      });
    });
  }

  /** Ends the sleep under way, if any, or makes the next one return at once. */
  wake(): void {
    if (this.sleeping) this.endSleep();
    else this.woken = true;
  }

  /** Ends the sleep under way, if any, keeps no wake-up for later, and drops the poll's timer. */
  cancel(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.sleeping) this.endSleep();
  }

  private endSleep(): void {
    const { resolve } = this.sleeping!;
    this.sleeping = null;
    resolve();
  }
}
