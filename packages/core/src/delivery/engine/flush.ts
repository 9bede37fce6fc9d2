/**
 * The engine's outcome batches: decided attempts wait here and are recorded many to a transaction
 * (`recordOutcomes`, the store's `recordMany`). A flush starts when the batch is complete (nothing
 * of this engine is still sending), when `flushSize` outcomes wait, or `flushDelayMs` after the
 * first of them began to wait, whichever comes first, so a quiet webhook's outcome is recorded at
 * once. One flush runs at a time; what becomes due meanwhile goes in the next, as soon as it ends. A flush that fails records none of its outcomes: their deliveries stay leased
 * until the lease ends and are then claimed again (at least once), and it is reported once.
 */
import type { AttemptRecord } from '../../store/ports/deliveries.js';
import type { DecidedAttempt } from '../record-outcome.js';

/** What became of a decided attempt: recorded with its outcome, `lost` lease, or `failed` flush. */
export type Recorded = AttemptRecord['outcome'] | 'lost' | 'failed';

/** When to flush. */
export interface FlushSettings {
  flushSize: number;
  flushDelayMs: number;
}

interface Waiting {
  decided: DecidedAttempt;
  done(recorded: Recorded): void;
}

/** Decided attempts waiting to be recorded, and the flushes that record them. */
export class OutcomeBatches {
  private waiting: Waiting[] = [];
  private flushing: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** A flush is due (complete, full or timed out) as soon as none runs. */
  private due = false;

  constructor(
    private readonly record: (batch: DecidedAttempt[]) => Promise<Recorded[]>,
    private readonly settings: FlushSettings,
    private readonly onFailure: (error: unknown, outcomes: number) => void,
  ) {}

  /** Outcomes waiting, not yet being written. */
  get size(): number {
    return this.waiting.length;
  }

  /**
   * Queues a decided attempt; `complete`: nothing else of this engine is still sending. Resolves
   * once its flush has ended, with what became of it (never rejects).
   */
  add(decided: DecidedAttempt, complete: boolean): Promise<Recorded> {
    const recorded = new Promise<Recorded>((done) => this.waiting.push({ decided, done }));
    if (complete || this.waiting.length >= this.settings.flushSize) {
      this.due = true;
      this.kick();
    } else if (this.timer === null) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.due = true;
        this.kick();
      }, this.settings.flushDelayMs);
    }
    return recorded;
  }

  /** Flushes everything waiting and resolves once nothing waits and no flush runs. */
  async drain(): Promise<void> {
    while (this.flushing || this.waiting.length > 0) {
      this.due = true;
      this.kick();
      await this.flushing;
    }
  }

  /** Starts a flush when one is due and none runs. */
  private kick(): void {
    if (this.flushing || !this.due || this.waiting.length === 0) return;
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.waiting.splice(0, this.settings.flushSize);
    // What is left over a full batch is due at once; what arrives during the flush is due by the
    // same rules (complete, full, or its delay passed), checked again when the flush ends.
    this.due = this.waiting.length > 0;
    this.flushing = this.write(batch).finally(() => {
      this.flushing = null;
      this.kick();
    });
  }

  private async write(batch: Waiting[]): Promise<void> {
    let recorded: Recorded[];
    try {
      recorded = await this.record(batch.map((one) => one.decided));
    } catch (error) {
      this.onFailure(error, batch.length);
      recorded = batch.map(() => 'failed');
    }
    for (const [i, one] of batch.entries()) one.done(recorded[i]!);
  }
}
