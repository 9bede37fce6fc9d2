/**
 * Migration 25: portal sessions (the dashboard embedded in the host app), each stored with the
 * SHA-256 of its token only, looked up by it on every request of the embedded page.
 */

import { organizationTable } from './columns.js';
import { migration } from './migration.js';

export const portalSessions = migration(25, 'portal-sessions', (t) => [
  `${organizationTable(t, t.portalSessions)}
      user_id text NOT NULL,
      created_by text NOT NULL,
      token_hash text NOT NULL UNIQUE,
      capabilities text[] NOT NULL,
      read_only boolean NOT NULL,
      origin text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`,
  `CREATE INDEX portal_sessions_by_organization ON ${t.portalSessions} (organization_id, created_at, id)`,
]);
