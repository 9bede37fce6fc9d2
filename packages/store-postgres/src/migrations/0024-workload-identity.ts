/**
 * Migration 24: workload identity. The identities each organization trusts, the tokens issued to
 * them (by hash, deleted with their identity), the `jti`s already exchanged (per organization and
 * issuer, until the ID token's expiry), and the expiry of a workload's ephemeral device.
 */

import { organizationTable } from './columns.js';
import type { Migration } from './migration.js';

export const workloadIdentity: Migration = {
  id: 24,
  name: 'workload-identity',
  statements: (t) => [
    `${organizationTable(t, t.workloadIdentities)}
      name text NOT NULL,
      issuer text NOT NULL,
      audience text NOT NULL,
      subject text NOT NULL,
      claims jsonb NOT NULL,
      grants jsonb NOT NULL,
      actions text[] NOT NULL,
      token_ttl_seconds integer NOT NULL,
      created_at timestamptz NOT NULL,
      UNIQUE (organization_id, name)
    )`,
    `CREATE TABLE ${t.workloadTokens} (
      token_hash text PRIMARY KEY,
      id text NOT NULL,
      organization_id text NOT NULL,
      identity_id text NOT NULL REFERENCES ${t.workloadIdentities} (id) ON DELETE CASCADE,
      device_id text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`,
    `CREATE INDEX ON ${t.workloadTokens} (identity_id)`,
    `CREATE TABLE ${t.workloadJtis} (
      organization_id text NOT NULL,
      issuer text NOT NULL,
      jti text NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (organization_id, issuer, jti)
    )`,
    `ALTER TABLE ${t.devices} ADD COLUMN expires_at timestamptz`,
  ],
};
