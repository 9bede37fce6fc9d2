/** Migration 1: every table of the store, with the indexes of its hot queries. */
import type { Tables } from '../schema-name.js';
import { organizationTable, secretVersionColumns } from './columns.js';
import { migration } from './migration.js';

// Released SQL, grouped by concern: each statement stays byte for byte as it shipped (the
// indentation inside the strings included), and the groups run in their original order.

/** Organizations, their projects and the projects' environments. */
const tenancy = (t: Tables) => [
  `CREATE TABLE ${t.organizations} (
      id text PRIMARY KEY,
      slug text NOT NULL UNIQUE,
      name text NOT NULL,
      created_at timestamptz NOT NULL
    )`,
  `${organizationTable(t, t.projects)}
      slug text NOT NULL,
      name text NOT NULL,
      created_at timestamptz NOT NULL,
      UNIQUE (organization_id, slug)
    )`,
  `${organizationTable(t, t.environments)}
      project_id text NOT NULL REFERENCES ${t.projects} (id),
      slug text NOT NULL,
      require_strict_conflict_mode boolean NOT NULL,
      created_at timestamptz NOT NULL,
      UNIQUE (project_id, slug)
    )`,
];

/** Who may act: members, and the API tokens they hold. */
const access = (t: Tables) => [
  `CREATE TABLE ${t.members} (
      organization_id text NOT NULL REFERENCES ${t.organizations} (id),
      user_id text NOT NULL,
      role text NOT NULL,
      grants jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (organization_id, user_id)
    )`,
  // Only the SHA-256 of a token is stored; looked up by it on every request.
  `${organizationTable(t, t.tokens)}
      user_id text NOT NULL,
      name text NOT NULL,
      token_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`,
  `CREATE INDEX api_tokens_by_organization ON ${t.tokens} (organization_id, created_at, id)`,
];

/** The devices that sign pushes, and the nonces that make each push count once. */
const devices = (t: Tables) => [
  `${organizationTable(t, t.devices)}
      user_id text NOT NULL,
      name text NOT NULL,
      public_key text NOT NULL,
      status text NOT NULL,
      created_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`,
  `CREATE INDEX devices_by_organization_user ON ${t.devices} (organization_id, user_id, created_at, id)`,
  `CREATE TABLE ${t.nonces} (
      scope text NOT NULL,
      nonce text NOT NULL,
      expires_at bigint NOT NULL,
      PRIMARY KEY (scope, nonce)
    )`,
  `CREATE INDEX push_nonces_by_expiry ON ${t.nonces} (expires_at)`,
];

/** The secrets, and the hash-chained activity log every write appends to. */
const secretsAndActivity = (t: Tables) => [
  // One row per key of an environment: its head. Version 0 marks a row inserted only to be locked
  // by a push of a new key; it reads as "no such key".
  `CREATE TABLE ${t.secrets} (
      ${secretVersionColumns(t)}
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (environment_id, key)
    )`,
  // The head of each organization's hash chain, locked by every append.
  `CREATE TABLE ${t.chains} (
      organization_id text PRIMARY KEY,
      seq bigint NOT NULL,
      hash text NOT NULL
    )`,
  // The event is kept as the exact JSON that was hashed; the columns beside it are for queries.
  `CREATE TABLE ${t.events} (
      organization_id text NOT NULL,
      seq bigint NOT NULL,
      id text NOT NULL UNIQUE,
      type text NOT NULL,
      project text,
      environment text,
      occurred_at timestamptz NOT NULL,
      body text NOT NULL,
      PRIMARY KEY (organization_id, seq)
    )`,
  `CREATE INDEX activity_by_project ON ${t.events} (organization_id, project, seq)`,
  `CREATE INDEX activity_by_environment ON ${t.events} (organization_id, environment, seq)`,
  `CREATE INDEX activity_by_type ON ${t.events} (organization_id, type, seq)`,
];

export const initial = migration(1, 'initial', (t) => [
  ...tenancy(t),
  ...access(t),
  ...devices(t),
  ...secretsAndActivity(t),
]);
