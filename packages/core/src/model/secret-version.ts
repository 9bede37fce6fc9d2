/** A key's version as a store keeps it: what a push writes and history reads. */
import type { Actor } from './model.js';

/** One version of a key as a store keeps it. */
export interface StoredSecretVersion {
  key: string;
  version: number;
  /** True for a tombstone (a delete). */
  deleted: boolean;
  /** The value as stored (sealed with a keyring), while kept; null for a tombstone or a pruned value. */
  value: string | null;
  occurred_at: string;
  /** Who wrote it; null for a version back-filled from a head written before history was kept. */
  actor: Actor | null;
  device_id: string | null;
  /** The event that records the write; null as `actor`. */
  event_id: string | null;
}
