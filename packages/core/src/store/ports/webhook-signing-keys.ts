/** Port: the Ed25519 key pairs organizations sign `standard-webhooks-ed25519` deliveries with. */
import type { WebhookSigningKey } from '../../model.js';

/**
 * Keys are never deleted by the API (a backup carries them all), only replaced by a restore's; an
 * organization has at most one current key (`retires_at` null) at any time. Every method addresses
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
   * In one step: the current key (if any) gets `retiresAt`, and `next` becomes current. Returns the
   * key it retired, or null.
   */
  rotate(next: WebhookSigningKey, retiresAt: string): Promise<WebhookSigningKey | null>;
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
