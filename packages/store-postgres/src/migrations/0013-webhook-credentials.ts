/**
 * Migration 13: what a receiver may demand of a webhook. `headers` holds its custom headers as
 * `[{name, value_sealed}]` (values sealed with the keyring, never in clear); `client_certificate`
 * its mTLS certificate (PEM, public) with the private key sealed, or null.
 */
import { migration } from './migration.js';

export const webhookCredentials = migration(13, 'webhook-credentials', (t) => [
  `ALTER TABLE ${t.webhooks} ADD COLUMN headers jsonb NOT NULL DEFAULT '[]'::jsonb`,
  `ALTER TABLE ${t.webhooks} ADD COLUMN client_certificate jsonb`,
]);
