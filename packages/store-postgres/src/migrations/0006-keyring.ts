/**
 * Migration 6: the keyring key ids the data was sealed with, each with a check value sealed by that
 * key (written by the core at start). Ids already found in sealed data (secret values, signing
 * secrets, staged restore parts: `lk1.<key id>.<nonce>.<body>`) are recorded without a check, so a
 * keyring that lacks one is refused from the first start after the upgrade.
 */
import { migration } from './migration.js';

const SEALED = `'^lk1\\.[A-Za-z0-9_-]{1,32}\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$'`;

export const keyring = migration(6, 'keyring', (t) => [
  `CREATE TABLE ${t.keyIds} (
      key_id text COLLATE "C" PRIMARY KEY,
      check_value text,
      recorded_at timestamptz NOT NULL DEFAULT now()
    )`,
  `INSERT INTO ${t.keyIds} (key_id)
     SELECT DISTINCT split_part(sealed, '.', 2) FROM (
       SELECT value AS sealed FROM ${t.secrets} WHERE value ~ ${SEALED}
       UNION ALL SELECT secret_sealed FROM ${t.webhooks} WHERE secret_sealed ~ ${SEALED}
       UNION ALL SELECT data FROM ${t.restoreParts} WHERE data ~ ${SEALED}
     ) AS found
     ON CONFLICT (key_id) DO NOTHING`,
]);
