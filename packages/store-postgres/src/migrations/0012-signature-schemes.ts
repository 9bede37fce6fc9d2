/**
 * Migration 12: each audit webhook's signature scheme (existing webhooks keep `latchkey`) and the
 * secret a rotation replaced while it still signs; the organizations' Ed25519 webhook signing keys,
 * at most one current (not retiring) key per organization.
 */

import { organizationTable } from './columns.js';
import { migration } from './migration.js';

export const signatureSchemes = migration(12, 'signature-schemes', (t) => [
  `ALTER TABLE ${t.webhooks}
       ADD COLUMN signature_scheme text NOT NULL DEFAULT 'latchkey'
         CHECK (signature_scheme IN ('latchkey', 'standard-webhooks', 'standard-webhooks-ed25519')),
       ADD COLUMN previous_secret jsonb`,
  `${organizationTable(t, t.signingKeys)}
      public_key text NOT NULL,
      private_key_sealed text NOT NULL,
      created_at timestamptz NOT NULL,
      retires_at timestamptz
    )`,
  `CREATE UNIQUE INDEX webhook_signing_keys_current ON ${t.signingKeys} (organization_id) WHERE retires_at IS NULL`,
  `CREATE INDEX webhook_signing_keys_by_organization ON ${t.signingKeys} (organization_id, created_at, id)`,
]);
