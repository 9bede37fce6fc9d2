/** Port: the Ed25519 key pairs organizations sign `standard-webhooks-ed25519` deliveries with. */
import type { WebhookSigningKey } from '../../model/model.js';

/**
 * What a rotation through the API keeps bounded: how many keys are made in a window, that only the
 * key it retires keeps signing beside the new one, and how many keys are stored.
 */
export interface RotationBounds {
  /** The rotation's time: any key still retiring then (an earlier rotation's) retires at it. */
  at: string;
  /** Keys made after this instant count against `maxPerWindow`. */
  windowStart: string;
  /** The rotation is refused when this many keys were made after `windowStart`. */
  maxPerWindow: number;
  /** Keys kept after the rotation, the new one included; the oldest retired keys beyond it are deleted. */
  keep: number;
}

/** A rotation's outcome: done (with the key it retired, or null), or refused by its bounds. */
export type RotationOutcome =
  | { ok: true; retired: WebhookSigningKey | null }
  | { ok: false; oldestInWindow: string };

/**
 * An organization has at most one current key (`retires_at` null) at any time. Keys are deleted
 * only by a bounded rotation (the oldest retired ones beyond its `keep`) and replaced by a
 * restore's. Every method addresses
 * one organization's keys.
 */
export interface WebhookSigningKeyRepository {
  /** The organization's keys, oldest first, retired ones included. */
  list(organizationId: string): Promise<WebhookSigningKey[]>;
  /**
   * Makes `key` the organization's current key unless it already has one, in one race-safe step
   * (concurrent calls end with one current key); returns the current key.
   */
  ensureCurrent(key: WebhookSigningKey): Promise<WebhookSigningKey>;
  /**
   * In one step: the current key (if any) gets `retiresAt`, and `next` becomes current. With
   * `bounds`, also in that step and race-safe (concurrent rotations of one organization take
   * turns): refused, writing nothing, when `bounds.maxPerWindow` keys were made after
   * `bounds.windowStart`; every other key still signing after `bounds.at` retires at it; then the
   * retired keys beyond the newest `bounds.keep` are deleted. Without bounds (a restore), nothing
   * else changes.
   */
  rotate(next: WebhookSigningKey, retiresAt: string, bounds?: RotationBounds): Promise<RotationOutcome>;
  /** Inserts keys as they are (restore). */
  insertMany(keys: readonly WebhookSigningKey[]): Promise<void>;
  /** Deletes every key of the organization (a restore, inside its transaction, before `insertMany`). */
  deleteAll(organizationId: string): Promise<void>;
  /**
   * Replaces a sealed private key only where it still is `from` (re-encrypt). Returns whether it was
   * replaced.
   */
  replacePrivateKey(organizationId: string, id: string, from: string, to: string): Promise<boolean>;
  /** The ids of every organization that has keys (for the re-encrypt routine). */
  organizationIds(): Promise<string[]>;
}
