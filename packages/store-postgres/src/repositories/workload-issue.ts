/**
 * The exchange's writes on SQL (`WorkloadRepository.issue`) as one statement: the identity's row
 * held, the `jti`s read, the `jti` spent, the expired ones forgotten and the device and the token
 * inserted, as data-modifying CTEs that each write only when the `jti` was spent. One statement is
 * one step (it writes all of it or nothing) and one round trip, where the checks and the writes one
 * by one cost six.
 */
import type { WorkloadIssue, WorkloadIssueResult, WorkloadToken } from '@latchkey/core/store';
import type { SqlQueryable } from '../driver.js';
import { recordColumns, text, timestamp } from '../record-columns.js';
import type { Tables } from '../schema-name.js';
import { DEVICE } from './devices.js';

/** A workload token's columns. */
export const TOKEN = recordColumns<WorkloadToken>({
  id: text(),
  organization_id: text(),
  identity_id: text(),
  token_hash: text(),
  device_id: text(),
  created_at: timestamp(),
  expires_at: timestamp(),
});

/** The issue statement's first parameters; the device's columns follow them, then the token's. */
const FIXED = 7;

/** `$n, $n+1, …` for `count` columns from `first` on. */
const placeholders = (first: number, count: number) =>
  Array.from({ length: count }, (_, i) => `$${first + i}`).join(', ');

/**
 * The statement. $1 organization, $2 issuer, $3 jti, $4 identity id, $5 now, $6 the jti's expiry,
 * $7 how many unexpired jtis may be remembered; then the device's columns and the token's.
 *
 * All of its parts read one snapshot, so the checks read the `jti`s as they were before it: the
 * expired ones count as forgotten (`expires_at >= $5`), and the one being spent is left out of the
 * forgetting (an expired `jti` given again is renewed by the insert instead), since one statement
 * may not change a row twice. The `jti`'s primary key decides a replay racing it: the insert waits
 * for the other transaction and then renews nothing, so nothing is written. `INSERT … SELECT` with
 * bare parameters types them by their columns.
 */
export function issueStatement(t: Tables): string {
  const nDevice = DEVICE.names.split(', ').length;
  const nToken = TOKEN.names.split(', ').length;
  const device = placeholders(FIXED + 1, nDevice);
  const token = placeholders(FIXED + 1 + nDevice, nToken);
  return `WITH held AS (
      SELECT 1 FROM ${t.workloadIdentities} WHERE id = $4 FOR SHARE
    ), seen AS (
      SELECT
        EXISTS (SELECT 1 FROM ${t.workloadJtis}
          WHERE organization_id = $1 AND issuer = $2 AND jti = $3 AND expires_at >= $5) AS replayed,
        (SELECT count(*) FROM ${t.workloadJtis}
          WHERE organization_id = $1 AND issuer = $2 AND expires_at >= $5) AS live
    ), spent AS (
      INSERT INTO ${t.workloadJtis} (organization_id, issuer, jti, expires_at)
      SELECT $1, $2, $3, $6 FROM held, seen WHERE NOT seen.replayed AND seen.live < $7
      ON CONFLICT (organization_id, issuer, jti) DO UPDATE SET expires_at = EXCLUDED.expires_at
        WHERE ${t.workloadJtis}.expires_at < $5
      RETURNING 1
    ), forgotten AS (
      DELETE FROM ${t.workloadJtis}
      WHERE organization_id = $1 AND issuer = $2 AND expires_at < $5 AND jti <> $3
        AND EXISTS (SELECT 1 FROM spent)
    ), device AS (
      INSERT INTO ${t.devices} (${DEVICE.names}) SELECT ${device} WHERE EXISTS (SELECT 1 FROM spent)
    ), token AS (
      INSERT INTO ${t.workloadTokens} (${TOKEN.names}) SELECT ${token} WHERE EXISTS (SELECT 1 FROM spent)
    )
    SELECT EXISTS (SELECT 1 FROM held) AS held, seen.replayed, seen.live::int AS live,
      EXISTS (SELECT 1 FROM spent) AS spent
    FROM seen`;
}

/** The parameters of {@link issueStatement}. */
export function issueParams(issue: WorkloadIssue): unknown[] {
  const { token } = issue;
  return [
    token.organization_id,
    issue.issuer,
    issue.jti,
    token.identity_id,
    issue.now,
    issue.jti_expires_at,
    issue.max_jtis,
    ...DEVICE.values(issue.device),
    ...TOKEN.values(token),
  ];
}

/** Runs the exchange's writes through `q` in one statement; what it did (see `WorkloadRepository.issue`). */
export async function issueWorkloadToken(
  q: SqlQueryable,
  t: Tables,
  issue: WorkloadIssue,
): Promise<WorkloadIssueResult> {
  type Row = { held: boolean; replayed: boolean; live: number; spent: boolean };
  const { rows } = await q.query<Row>(issueStatement(t), issueParams(issue));
  const row = rows[0]!;
  if (!row.held) return 'identity_gone';
  if (row.replayed) return 'replayed';
  if (row.live >= issue.max_jtis) return 'jti_limit';
  // Not spent though it was not seen: another exchange of the same jti committed in between.
  return row.spent ? 'issued' : 'replayed';
}
