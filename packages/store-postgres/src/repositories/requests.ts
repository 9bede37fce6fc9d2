import type { RequestKeys, RequestRecords, RequestRepository } from '@latchkey/core/store';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';
import { toDevice } from './devices.js';
import { toEnvironment } from './environments.js';
import { toMember } from './members.js';
import { toOrganization } from './organizations.js';
import { toProject } from './projects.js';
import { batchedLookups } from './requests-batch.js';
import { toToken } from './tokens.js';

/** A looked-up row: each record a JSON object, or null when absent. */
export type RequestRow = Record<string, Record<string, unknown> | null | unknown>;

/** The joins from a request's keys (the columns named by `keys`) to its records. */
function joins(
  t: Tables,
  keys: { token: string; organization: string; project: string; environment: string },
) {
  return `LEFT JOIN ${t.tokens} t ON t.token_hash = ${keys.token}
    LEFT JOIN ${t.members} m ON m.organization_id = t.organization_id AND m.user_id = t.user_id
    LEFT JOIN ${t.organizations} o ON o.slug = ${keys.organization}
    LEFT JOIN ${t.projects} p ON p.organization_id = o.id AND p.slug = ${keys.project}
    LEFT JOIN ${t.environments} e ON e.project_id = p.id AND e.slug = ${keys.environment}`;
}

const RECORDS = `to_jsonb(t) AS token, to_jsonb(m) AS member, to_jsonb(o) AS organization,
      to_jsonb(p) AS project, to_jsonb(e) AS environment`;

/** The records of one row, as the port returns them. */
function recordsOf(row: RequestRow, keys: RequestKeys): RequestRecords {
  const map = <T>(value: unknown, to: (r: Record<string, unknown>) => T) =>
    value ? to(value as Record<string, unknown>) : null;
  const records: RequestRecords = {
    token: map(row['token'], toToken),
    member: map(row['member'], toMember),
    organization: map(row['organization'], toOrganization),
    project: map(row['project'], toProject),
    environment: map(row['environment'], toEnvironment),
  };
  return keys.device === undefined ? records : { ...records, device: map(row['device'], toDevice) };
}

/**
 * The records a request names in one query. Lookups made at the same moment (those of one turn of
 * the event loop, as when a seal lets several pushes go at once) share one query of one row per
 * request (`requests-batch.ts`): one round trip instead of one each.
 */
export function sqlRequests(db: Runner, t: Tables): RequestRepository {
  const one = (device: boolean) => `SELECT ${RECORDS}${device ? ', to_jsonb(d) AS device' : ''}
    FROM (SELECT 1) AS one
    ${joins(t, { token: '$1', organization: '$2', project: '$3', environment: '$4' })}${
      device ? `\n    LEFT JOIN ${t.devices} d ON d.organization_id = o.id AND d.id = $5` : ''
    }`;
  const withoutDevice = one(false);
  const withDevice = one(true);
  // Row i answers request i (its ordinality); every join is on a unique key, so one row each.
  const many = `SELECT r.i, ${RECORDS}, to_jsonb(d) AS device
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY
      AS r(token_hash, organization, project, environment, device, i)
    ${joins(t, { token: 'r.token_hash', organization: 'r.organization', project: 'r.project', environment: 'r.environment' })}
    LEFT JOIN ${t.devices} d ON d.organization_id = o.id AND d.id = r.device`;
  const params = (keys: RequestKeys) => [
    keys.tokenHash ?? null,
    keys.organization ?? null,
    keys.project ?? null,
    keys.environment ?? null,
  ];
  const lookup = batchedLookups<RequestKeys, RequestRow>(
    async (keys) => {
      const { rows } =
        keys.device === undefined
          ? await db.query<RequestRow>(withoutDevice, params(keys))
          : await db.query<RequestRow>(withDevice, [...params(keys), keys.device]);
      return rows[0]!;
    },
    async (batch) => {
      const columns: (string | null)[][] = [[], [], [], [], []];
      for (const keys of batch) {
        for (const [c, value] of [...params(keys), keys.device ?? null].entries()) columns[c]!.push(value);
      }
      const { rows } = await db.query<RequestRow & { i: unknown }>(many, columns);
      const byIndex = new Map(rows.map((row) => [Number(row.i), row]));
      return batch.map((_, i) => {
        const row = byIndex.get(i + 1);
        if (!row) throw new Error('a batched request lookup came back without its row');
        return row;
      });
    },
  );
  return {
    async resolve(keys) {
      return recordsOf(await lookup(keys), keys);
    },
  };
}
