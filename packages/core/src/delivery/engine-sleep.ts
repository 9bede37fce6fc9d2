/**
 * The idle engine's sleep: until the next poll, or sooner when woken. A wake-up while awake is
 * kept, so the next sleep returns at once rather than miss deliveries queued meanwhile.
 */

/** Sleeps that a wake-up ends early. */
export class WakeableSleep {
  private sleeping: { timer: ReturnType<typeof setTimeout>; resolve: () => void } | null = null;
  private woken = false;

  /**
   * Resolves after `ms`, on a wake-up, when `until` resolves (the sleep then ends, so a later
   * wake-up is kept), or at once when woken since the last sleep.
   */
  sleep(ms: number, until?: Promise<unknown>): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const sleeping = {
        timer: setTimeout(() => {
          this.sleeping = null;
          resolve();
        }, ms),
        resolve,
      };
      this.sleeping = sleeping;
      void until?.then(() => {
        if (this.sleeping === sleeping) this.endSleep();
      });
    });
  }

  /** Ends the sleep under way, or makes the next one return at once. */
  wake(): void {
    if (this.sleeping) this.endSleep();
    else this.woken = true;
  }

  /** Ends the sleep under way, if any, and keeps no wake-up for later. */
  cancel(): void {
    if (this.sleeping) this.endSleep();
  }

  private endSleep(): void {
    const { timer, resolve } = this.sleeping!;
    clearTimeout(timer);
    this.sleeping = null;
    resolve();
  }
}
