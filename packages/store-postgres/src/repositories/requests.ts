import type { RequestRecords, RequestRepository } from '@latchkey/core/store';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';
import { toDevice } from './devices.js';
import { toEnvironment } from './environments.js';
import { toMember } from './members.js';
import { toOrganization } from './organizations.js';
import { toProject } from './projects.js';
import { toToken } from './tokens.js';

type Row = Record<string, Record<string, unknown> | null>;

/** The records a request names in one query: each a JSON object, or null when absent. */
export function sqlRequests(db: Runner, t: Tables): RequestRepository {
  const text = (
    device: boolean,
  ) => `SELECT to_jsonb(t) AS token, to_jsonb(m) AS member, to_jsonb(o) AS organization,
      to_jsonb(p) AS project, to_jsonb(e) AS environment${device ? ', to_jsonb(d) AS device' : ''}
    FROM (SELECT 1) AS one
    LEFT JOIN ${t.tokens} t ON t.token_hash = $1
    LEFT JOIN ${t.members} m ON m.organization_id = t.organization_id AND m.user_id = t.user_id
    LEFT JOIN ${t.organizations} o ON o.slug = $2
    LEFT JOIN ${t.projects} p ON p.organization_id = o.id AND p.slug = $3
    LEFT JOIN ${t.environments} e ON e.project_id = p.id AND e.slug = $4${
      device
        ? `
    LEFT JOIN ${t.devices} d ON d.organization_id = o.id AND d.id = $5`
        : ''
    }`;
  const withoutDevice = text(false);
  const withDevice = text(true);
  return {
    async resolve(keys): Promise<RequestRecords> {
      const params = [
        keys.tokenHash ?? null,
        keys.organization ?? null,
        keys.project ?? null,
        keys.environment ?? null,
      ];
      const { rows } =
        keys.device === undefined
          ? await db.query<Row>(withoutDevice, params)
          : await db.query<Row>(withDevice, [...params, keys.device]);
      const row = rows[0]!;
      const map = <T>(
        value: Record<string, unknown> | null | undefined,
        to: (r: Record<string, unknown>) => T,
      ) => (value ? to(value) : null);
      const records: RequestRecords = {
        token: map(row['token'], toToken),
        member: map(row['member'], toMember),
        organization: map(row['organization'], toOrganization),
        project: map(row['project'], toProject),
        environment: map(row['environment'], toEnvironment),
      };
      return keys.device === undefined ? records : { ...records, device: map(row['device'], toDevice) };
    },
  };
}
