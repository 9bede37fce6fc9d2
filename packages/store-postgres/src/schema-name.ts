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
  secretVersions: string;
  chains: string;
  events: string;
  /** Events committed by pushes, waiting for the sequencer to seal them onto the chain. */
  pendingEvents: string;
  /** The identity sequence numbering pending events (`n`, their order). */
  pendingEventsOrder: string;
  /** The complete subtrees of each organization's Merkle tree. */
  treeNodes: string;
  webhooks: string;
  deliveries: string;
  /** How many deliveries each claim leased per webhook and still holds: the attempts in flight. */
  leases: string;
  attempts: string;
  rollups: string;
  totals: string;
  restoreSessions: string;
  restoreParts: string;
  keyIds: string;
  witnesses: string;
  cosignatures: string;
  signingKeys: string;
  /** Workload identities, the tokens issued to them, and the ID tokens' `jti`s already exchanged. */
  workloadIdentities: string;
  workloadTokens: string;
  workloadJtis: string;
  /** Replays of the log to a webhook in progress: the cursor each advances a batch at a time. */
  replays: string;
  /** The change requests of protected environments. */
  changeRequests: string;
  /** Portal sessions: the embedded dashboard's short-lived tokens, by their hash. */
  portalSessions: string;
  migrations: string;
}

/**
 * The `LISTEN` channel on which a schema's store announces queued deliveries: a short identifier
 * (channel names are limited to 63 bytes), the schema's own name when it fits.
 */
export function deliveriesChannel(schema: string): string {
  return schema.length <= 40 ? `latchkey_deliveries_${schema}` : `latchkey_deliveries_${hash(schema)}`;
}

/** A short, stable digest of a name (FNV-1a, hex): not for security, only to shorten. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
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
    secretVersions: table('secret_versions'),
    chains: table('activity_chains'),
    events: table('activity_events'),
    pendingEvents: table('activity_pending_events'),
    pendingEventsOrder: table('activity_pending_events_n_seq'),
    treeNodes: table('activity_tree_nodes'),
    webhooks: table('audit_webhooks'),
    deliveries: table('webhook_deliveries'),
    leases: table('webhook_leases'),
    attempts: table('webhook_attempts'),
    rollups: table('webhook_rollups'),
    totals: table('webhook_running_totals'),
    restoreSessions: table('restore_sessions'),
    restoreParts: table('restore_parts'),
    keyIds: table('keyring_key_ids'),
    witnesses: table('activity_witnesses'),
    cosignatures: table('activity_cosignatures'),
    workloadIdentities: table('workload_identities'),
    workloadTokens: table('workload_tokens'),
    workloadJtis: table('workload_jtis'),
    signingKeys: table('webhook_signing_keys'),
    replays: table('webhook_replays'),
    changeRequests: table('change_requests'),
    portalSessions: table('portal_sessions'),
    migrations: table('latchkey_migrations'),
  };
}
