/**
 * Migration 15: the witnesses each organization registered for its transparency log, and the
 * cosignatures they sent for its tree heads (kept for a bounded number of heads).
 */
import { migration } from './migration.js';

export const witnesses = migration(15, 'witnesses', (t) => [
  `CREATE TABLE ${t.witnesses} (
      organization_id text NOT NULL REFERENCES ${t.organizations} (id),
      name text NOT NULL,
      public_key text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (organization_id, name),
      UNIQUE (organization_id, public_key)
    )`,
  `CREATE TABLE ${t.cosignatures} (
      organization_id text NOT NULL,
      tree_size bigint NOT NULL,
      root_hash text NOT NULL,
      witness text NOT NULL,
      timestamp bigint NOT NULL,
      line text NOT NULL,
      PRIMARY KEY (organization_id, tree_size, root_hash, witness),
      FOREIGN KEY (organization_id, witness) REFERENCES ${t.witnesses} (organization_id, name) ON DELETE CASCADE
    )`,
]);
