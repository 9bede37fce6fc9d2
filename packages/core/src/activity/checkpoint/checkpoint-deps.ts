/**
 * What the checkpoint and cosignature code takes of the core's dependencies: the store, the clock and
 * the origin's first part, and nothing else, so it needs neither the HTTP layer nor the wiring.
 */
import type { LatchkeyStore } from '../../store/types.js';

/** The parts of the core's dependencies that checkpoints read. */
export interface CheckpointDeps {
  store: LatchkeyStore;
  /** Current time in milliseconds. */
  now(): number;
  /** The first part of checkpoint origin lines (core option `checkpointOrigin`). */
  checkpointOrigin: string;
}
