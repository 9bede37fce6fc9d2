/** The schema the store lives in, checked once and quoted, so table names can be written into SQL safely. */

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The store's schema: its name, and each table's qualified name. */
export interface Tables {
  schema: string;
  /** `"schema"` */
  quoted: string;
  organizations: string;
  projects: string;
  environments: string;
  members: string;
  tokens: string;
  devices: string;
  nonces: string;
  secrets: string;
  chains: string;
  events: string;
  migrations: string;
}

/** Checks `schema` (lower-case letters, digits and `_`, at most 63) and names its tables. */
export function tablesOf(schema: string): Tables {
  if (!SCHEMA_NAME.test(schema)) {
    throw new TypeError(
      `schema must be lower-case letters, digits and "_", starting with a letter or "_", at most 63 characters; got "${schema}"`,
    );
  }
  const quoted = `"${schema}"`;
  const table = (name: string) => `${quoted}.${name}`;
  return {
    schema,
    quoted,
    organizations: table('organizations'),
    projects: table('projects'),
    environments: table('environments'),
    members: table('members'),
    tokens: table('api_tokens'),
    devices: table('devices'),
    nonces: table('push_nonces'),
    secrets: table('secret_heads'),
    chains: table('activity_chains'),
    events: table('activity_events'),
    migrations: table('latchkey_migrations'),
  };
}
