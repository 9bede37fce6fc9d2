/**
 * A large backup, made fast: a fresh organization's backup (its chain and signed checkpoint as its
 * server wrote them) with a project, an environment and tens of thousands of versions put in, the
 * way a long-lived organization's backup holds them; and its content cut into parts of whole lines.
 */
import type { Line } from './restore-helpers.js';

/** Versions in the large backup: about 15 MB, seconds of work on every store. */
export const LARGE_VERSIONS = 60_000;
/** Keys they are spread over; each keeps the values of its newest versions, as a server does. */
export const LARGE_KEYS = 60;
const KEPT = 10;
/** Raw bytes per part: well within the body limit once sent as a JSON string. */
const PART_BYTES = 512 * 1024;

/** `lines` (a fresh organization's backup) with a project, an environment and a long history. */
export function withLargeHistory(lines: Line[]): Line[] {
  const at = '2026-11-01T00:00:00.000Z';
  const records: Line[] = [
    { kind: 'project', id: 'prj_noisy000000000000000001', slug: 'big', name: 'big', created_at: at },
    {
      kind: 'environment',
      id: 'env_noisy000000000000000001',
      project: 'big',
      slug: 'prod',
      require_strict_conflict_mode: false,
      created_at: at,
    },
  ];
  const perKey = LARGE_VERSIONS / LARGE_KEYS;
  const where = { project: 'big', environment: 'prod' };
  for (let k = 0; k < LARGE_KEYS; k++) {
    const key = `KEY_${k}`;
    records.push({
      kind: 'secret',
      ...where,
      key,
      value: `${key} v${perKey}`,
      version: perKey,
      updated_at: at,
    });
    for (let version = 1; version <= perKey; version++) {
      records.push({
        kind: 'secret_version',
        ...where,
        key,
        version,
        deleted: false,
        ...(version > perKey - KEPT ? { value: `${key} v${version}` } : {}),
        occurred_at: at,
        actor: { type: 'user', id: 'admin' },
        // Ids in the formats a push records: a restore refuses any other.
        device_id: 'dev_noisy000000000000000001',
        event_id: `evt_history${String(k).padStart(3, '0')}v${String(version).padStart(6, '0')}`,
      });
    }
  }
  // Records go between the header and the members (the reader's order), the chain is untouched.
  const members = lines.findIndex((l) => l.kind === 'member' || l.kind === 'events');
  return [...lines.slice(0, members), ...records, ...lines.slice(members)];
}

/** Content in parts of whole lines, each about `PART_BYTES`. */
export function partsOf(content: string): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < content.length) {
    const cut = content.indexOf('\n', Math.min(content.length - 1, start + PART_BYTES));
    const end = cut === -1 ? content.length : cut + 1;
    out.push(content.slice(start, end));
    start = end;
  }
  return out;
}
