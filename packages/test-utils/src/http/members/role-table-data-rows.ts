/**
 * The role x route table, part 2: the rows of the data (secrets, their versions, the history, the
 * export) and of the audit webhooks, which act on one webhook the owner makes per suite.
 */
import { ADMIN, type ConformanceContext } from '../harness/context.js';
import { PUBLIC_HOST } from '../harness/fake-network.js';
import { all, type Caller, managers, ORG, type Row, WEB } from './role-table-rows.js';

const HOOKS = `${ORG}/audit-webhooks`;
const tableWebhooks = new WeakMap<ConformanceContext, Promise<string>>();

/** A webhook of acme the table's rows act on, created once per suite by the owner. */
function tableWebhook(c: ConformanceContext): Promise<string> {
  let id = tableWebhooks.get(c);
  if (!id) {
    id = c
      .send('POST', HOOKS, { name: 'role table', url: `https://${PUBLIC_HOST}/table` }, ADMIN)
      .then((response) => (response.json as { id: string }).id);
    tableWebhooks.set(c, id);
  }
  return id;
}

/** The rows of secrets, history, export and audit webhooks. */
export const DATA_ROWS: Row[] = [
  {
    operationId: 'push',
    expect: { owner: 200, admin: 200, developer: 200, viewer: 403, outsider: 404 },
    call: (c, w) =>
      w.device
        ? c.push(w.device, { changes: [{ key: `RT_${w.role.toUpperCase()}`, value: 'v' }] })
        : c.send('POST', `${WEB}/environments/prod/push`, {}, w.token),
  },
  {
    operationId: 'pullSecrets',
    expect: all(200),
    call: (c, w) => c.send('GET', `${WEB}/environments/prod/secrets`, undefined, w.token),
  },
  {
    operationId: 'pullSecrets',
    expect: { owner: 200, admin: 200, developer: 403, viewer: 200, outsider: 404 },
    call: (c, w) => c.send('GET', `${WEB}/environments/dev/secrets`, undefined, w.token),
  },
  {
    operationId: 'listSecretVersions',
    expect: all(200),
    call: (c, w) => c.send('GET', `${WEB}/environments/prod/secrets/K/versions`, undefined, w.token),
  },
  {
    operationId: 'listSecretVersions',
    expect: { owner: 200, admin: 200, developer: 403, viewer: 200, outsider: 404 },
    call: (c, w) =>
      c.send('GET', `${WEB}/environments/dev/secrets/K/versions?include_values=true`, undefined, w.token),
  },
  {
    operationId: 'getOrganizationHistory',
    expect: managers(200),
    call: (c, w) => c.send('GET', `${ORG}/history`, undefined, w.token),
  },
  {
    operationId: 'getProjectHistory',
    expect: all(200),
    call: (c, w) => c.send('GET', `${WEB}/history`, undefined, w.token),
  },
  {
    operationId: 'getProjectHistory',
    expect: { owner: 200, admin: 200, developer: 403, viewer: 403, outsider: 404 },
    call: (c, w) => c.send('GET', `${ORG}/projects/api/history`, undefined, w.token),
  },
  {
    operationId: 'getEnvironmentHistory',
    expect: all(200),
    call: (c, w) => c.send('GET', `${WEB}/environments/prod/history`, undefined, w.token),
  },
  {
    operationId: 'getEnvironmentHistory',
    expect: { owner: 200, admin: 200, developer: 403, viewer: 200, outsider: 404 },
    call: (c, w) => c.send('GET', `${WEB}/environments/dev/history`, undefined, w.token),
  },
  {
    operationId: 'exportActivity',
    expect: managers(200),
    call: (c, w) => c.send('GET', `${ORG}/activity/export`, undefined, w.token),
  },
  {
    operationId: 'getActivityCheckpoint',
    expect: managers(200),
    call: (c, w) => c.send('GET', `${ORG}/activity/checkpoint`, undefined, w.token),
  },
  {
    operationId: 'getActivityInclusionProof',
    expect: managers(200),
    call: (c, w) => c.send('GET', `${ORG}/activity/proofs/inclusion?seq=1`, undefined, w.token),
  },
  {
    operationId: 'getActivityConsistencyProof',
    expect: managers(200),
    call: (c, w) => c.send('GET', `${ORG}/activity/proofs/consistency?from=1`, undefined, w.token),
  },
  {
    operationId: 'getActivityEventWithProof',
    expect: managers(200),
    call: (c, w) => c.send('GET', `${ORG}/activity/events/1`, undefined, w.token),
  },
  {
    operationId: 'listAuditWebhooks',
    expect: managers(200),
    call: (c, w) => c.send('GET', HOOKS, undefined, w.token),
  },
  {
    operationId: 'listWebhookSigningKeys',
    expect: all(200),
    call: (c, w) => c.send('GET', `${HOOKS}/signing-keys`, undefined, w.token),
  },
  {
    operationId: 'rotateWebhookSigningKey',
    expect: managers(200),
    call: (c, w) => c.send('POST', `${HOOKS}/signing-keys/rotate`, undefined, w.token),
  },
  {
    operationId: 'createAuditWebhook',
    expect: managers(201),
    call: (c, w) =>
      c.send('POST', HOOKS, { name: `rt-${w.role}`, url: `https://${PUBLIC_HOST}/${w.role}` }, w.token),
  },
  ...(
    [
      ['getAuditWebhook', 'GET', '', 200],
      ['rotateAuditWebhookSecret', 'POST', '/rotate-secret', 200],
      ['listAuditWebhookDeliveries', 'GET', '/deliveries', 200],
      ['disableAuditWebhook', 'POST', '/disable', 200],
      ['enableAuditWebhook', 'POST', '/enable', 200],
      ['testAuditWebhook', 'POST', '/test', 200],
    ] as const
  ).map(([operationId, method, suffix, status]) => ({
    operationId,
    expect: managers(status),
    call: async (c: ConformanceContext, w: Caller) =>
      c.send(method, `${HOOKS}/${await tableWebhook(c)}${suffix}`, undefined, w.token),
  })),
  {
    operationId: 'updateAuditWebhook',
    expect: managers(200),
    call: async (c, w) =>
      c.send('PATCH', `${HOOKS}/${await tableWebhook(c)}`, { name: `role table ${w.role}` }, w.token),
  },
  {
    operationId: 'recoverAuditWebhook',
    expect: managers(202),
    call: async (c, w) =>
      c.send(
        'POST',
        `${HOOKS}/${await tableWebhook(c)}/recover`,
        { since: new Date().toISOString() },
        w.token,
      ),
  },
  {
    operationId: 'getAuditWebhookMetrics',
    expect: managers(200),
    call: (c, w) => c.send('GET', `${HOOKS}/metrics?window=7d`, undefined, w.token),
  },
  {
    operationId: 'getAuditWebhookMetricsTimeline',
    expect: managers(200),
    call: (c, w) => c.send('GET', `${HOOKS}/metrics/timeline?window=30d`, undefined, w.token),
  },
];
