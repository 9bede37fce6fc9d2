import type {
  AuditWebhook,
  AuditWebhookRepository,
  WebhookClientCertificate,
  WebhookCredentials,
  WebhookHeader,
} from '@latchkey/core/store';
import { integer, jsonb, recordColumns, text, textArray, timestamp } from '../record-columns.js';
import { recordTable } from '../record-table.js';
import type { Runner } from '../runner.js';
import { deliveriesChannel, type Tables } from '../schema-name.js';

const WEBHOOK = recordColumns<AuditWebhook>({
  id: text(),
  organization_id: text(),
  name: text(),
  url: text(),
  status: text<AuditWebhook['status']>(),
  event_types: textArray(),
  secret_sealed: text(),
  headers: {
    read: (value) => jsonb<WebhookHeader[] | null>().read(value) ?? [],
    write: (value) => JSON.stringify(value ?? []),
    cast: '::jsonb',
  },
  client_certificate: {
    read: (value) => jsonb<WebhookClientCertificate | null>().read(value),
    write: (value) => (value ? JSON.stringify(value) : null),
    cast: '::jsonb',
  },
  signature_scheme: {
    read: (value) => value as AuditWebhook['signature_scheme'],
    write: (value) => value ?? 'latchkey',
  },
  previous_secret: jsonb(),
  consecutive_failures: integer(),
  last_delivery: jsonb(),
  last_error: jsonb(),
  created_at: timestamp(),
  created_by: text(),
});

const ONE = 'organization_id = $1 AND id = $2';

/**
 * What `update` sets: $3 name, $4 URL, $5 filter, $6 headers, $7 client certificate (written when
 * $8 says it was given, so null removes it), $9 signature scheme; a null leaves a field as it is.
 */
const UPDATE_SET = `name = COALESCE($3, name), url = COALESCE($4, url), event_types = COALESCE($5::text[], event_types),
  headers = COALESCE($6::jsonb, headers),
  client_certificate = CASE WHEN $8::boolean THEN $7::jsonb ELSE client_certificate END,
  signature_scheme = COALESCE($9, signature_scheme)`;

/** The parameters of {@link UPDATE_SET}, in its order. */
const updateParams = (
  organizationId: string,
  id: string,
  changes: Parameters<AuditWebhookRepository['update']>[2],
): unknown[] => [
  organizationId,
  id,
  changes.name ?? null,
  changes.url ?? null,
  changes.event_types ?? null,
  changes.headers ? JSON.stringify(changes.headers) : null,
  changes.client_certificate ? JSON.stringify(changes.client_certificate) : null,
  changes.client_certificate !== undefined,
  changes.signature_scheme ?? null,
];

/**
 * Inserts a webhook; with `max`, under a lock of its organization's row taken first, so the count
 * it checks cannot change before the insert.
 */
async function createWebhook(
  db: Runner,
  t: Tables,
  w: AuditWebhook,
  max: number | undefined,
): Promise<'created' | 'limit'> {
  if (max === undefined) {
    await recordTable(db, t.webhooks, WEBHOOK).insert(w);
    return 'created';
  }
  return db.atomic(async (q) => {
    await q.query(`SELECT 1 FROM ${t.organizations} WHERE id = $1 FOR UPDATE`, [w.organization_id]);
    const { rows } = await q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${t.webhooks} WHERE organization_id = $1`,
      [w.organization_id],
    );
    if ((rows[0]?.n ?? 0) >= max) return 'limit';
    await recordTable(q, t.webhooks, WEBHOOK).insert(w);
    return 'created';
  });
}

/** Audit webhooks on SQL; moves between states change their deliveries in the same transaction. */
export function sqlAuditWebhooks(db: Runner, t: Tables): AuditWebhookRepository {
  const webhooks = recordTable(db, t.webhooks, WEBHOOK);
  return {
    create: (w, max) => createWebhook(db, t, w, max),
    get: (organizationId, id) => webhooks.find(ONE, [organizationId, id]),
    list: (organizationId) => webhooks.list('organization_id = $1 ORDER BY created_at, id', [organizationId]),
    async organizationIds() {
      const { rows } = await db.query<{ organization_id: string }>(organizationIdsQuery(t));
      return rows.map((r) => r.organization_id);
    },
    update: (organizationId, id, changes) =>
      webhooks.update(UPDATE_SET, ONE, updateParams(organizationId, id, changes)),
    setSecret: (organizationId, id, secretSealed, previous) =>
      webhooks.update('secret_sealed = $3, previous_secret = $4::jsonb', ONE, [
        organizationId,
        id,
        secretSealed,
        previous ? JSON.stringify(previous) : null,
      ]),
    replaceSecret: (organizationId, id, from, to) =>
      webhooks.replace('secret_sealed', ONE, [organizationId, id], from, to),
    async replaceCredentials(organizationId, id, from, to) {
      const result = await db.query(
        `UPDATE ${t.webhooks} SET headers = $5::jsonb, client_certificate = $6::jsonb
         WHERE organization_id = $1 AND id = $2 AND headers = $3::jsonb
           AND client_certificate IS NOT DISTINCT FROM $4::jsonb`,
        [organizationId, id, ...credentialParams(from), ...credentialParams(to)],
      );
      return (result.rowCount ?? 0) === 1;
    },
    disable(organizationId, id) {
      return db.atomic(async (q) => {
        const webhook = await recordTable(q, t.webhooks, WEBHOOK).update("status = 'disabled'", ONE, [
          organizationId,
          id,
        ]);
        if (webhook) {
          // What was owed is dropped, the replay under way with it.
          await q.query(`DELETE FROM ${t.deliveries} WHERE webhook_id = $1`, [id]);
          await q.query(`DELETE FROM ${t.replays} WHERE webhook_id = $1`, [id]);
        }
        return webhook;
      });
    },
    enable(organizationId, id, at) {
      return db.atomic(async (q) => {
        const webhook = await recordTable(q, t.webhooks, WEBHOOK).update(
          "status = 'active', consecutive_failures = 0",
          ONE,
          [organizationId, id],
        );
        if (!webhook) return null;
        const { rowCount } = await q.query(
          `UPDATE ${t.deliveries} SET state = 'pending', attempts = 0, next_attempt_at = $2, lease_until = NULL
           WHERE webhook_id = $1 AND state = 'held'`,
          [id, at],
        );
        // Released deliveries are due now: wake the engines as a newly queued one would.
        if (rowCount > 0) await q.query('SELECT pg_notify($1, $2)', [deliveriesChannel(t.schema), '']);
        return { webhook, released: rowCount };
      });
    },
  };
}

/** A webhook's headers and certificate as jsonb parameters. */
const credentialParams = (c: WebhookCredentials) => [
  JSON.stringify(c.headers),
  c.client_certificate ? JSON.stringify(c.client_certificate) : null,
];

/**
 * The organizations that have webhooks, by a skip scan of the webhooks' organization index (one
 * probe per organization, not a read of every webhook).
 */
export const organizationIdsQuery = (t: Tables) =>
  `WITH RECURSIVE orgs AS (
     (SELECT organization_id FROM ${t.webhooks} ORDER BY organization_id LIMIT 1)
     UNION ALL
     SELECT (SELECT w.organization_id FROM ${t.webhooks} w WHERE w.organization_id > o.organization_id
             ORDER BY w.organization_id LIMIT 1)
     FROM orgs o WHERE o.organization_id IS NOT NULL
   )
   SELECT organization_id FROM orgs WHERE organization_id IS NOT NULL`;
