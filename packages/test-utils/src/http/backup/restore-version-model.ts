/**
 * Generated key histories for the restore tests: each key a head (live, deleted or none) and its
 * versions, most of them as a server writes them, some with one fault a crafted backup could carry
 * (versions past the head, going backwards, stopping short, none at all, no head, a head with no
 * room for the next push, a last version that disagrees with its head, who-wrote-it in formats the
 * server does not make). They become the `secret`, `deleted_secret` and `secret_version` lines of
 * one environment; `wellFormed` says, by the backup format's rules, which a restore must take.
 */
import fc from 'fast-check';
import type { Line } from './restore-helpers.js';

/** The largest version a column of 32-bit integers holds. */
export const INT32_MAX = 2_147_483_647;

/** Who wrote a version, as the line says it; `ok` when the server makes such metadata. */
export interface VersionMeta {
  actor: unknown;
  device_id: unknown;
  event_id: unknown;
  ok: boolean;
}

const PUSHED: VersionMeta = {
  actor: { type: 'user', id: 'admin' },
  device_id: `dev_${'a1'.repeat(12)}`,
  event_id: `evt_${'b2'.repeat(12)}`,
  ok: true,
};
const BACKFILLED: VersionMeta = { actor: null, device_id: null, event_id: null, ok: true };
const ODD_META: VersionMeta[] = [
  { ...PUSHED, actor: { type: 'system', id: 'delivery-engine' }, ok: false },
  { ...PUSHED, device_id: 'laptop', ok: false },
  { ...PUSHED, device_id: 'dev_a1;DROP', ok: false },
  { ...PUSHED, event_id: 'not-an-event', ok: false },
  { ...PUSHED, event_id: null, ok: false },
  { ...BACKFILLED, device_id: PUSHED.device_id, ok: false },
];

/** One version of a key: its number, whether it deletes, its value (when kept), who wrote it. */
export interface ModelVersion {
  version: number;
  deleted: boolean;
  value?: string;
  meta: VersionMeta;
}

/** One key of the environment. */
export interface ModelKey {
  key: string;
  head: { version: number; deleted: boolean; value?: string } | null;
  versions: ModelVersion[];
}

/** The faults a key may carry (null: none). */
const FAULTS = [
  'past-head',
  'backwards',
  'short',
  'no-versions',
  'no-head',
  'overflow',
  'last-deleted',
  'last-value',
] as const;
type Fault = (typeof FAULTS)[number];

const valueAt = (version: number) => `value of ${version}`;

/** A key's history as a server writes it, then `fault` applied. */
function keyOf(
  key: string,
  top: number,
  offsets: number[],
  deleted: boolean,
  meta: VersionMeta,
  fault: Fault | null,
): ModelKey {
  const head = fault === 'overflow' ? INT32_MAX : top;
  const numbers = [...new Set([0, ...offsets])]
    .map((offset) => head - offset)
    .filter((v) => v >= 1)
    .sort((a, b) => a - b);
  let versions: ModelVersion[] = numbers.map((version) => {
    const gone = version === head ? deleted : false;
    return { version, deleted: gone, ...(gone ? {} : { value: valueAt(version) }), meta };
  });
  const last = versions.at(-1)!;
  if (fault === 'past-head') versions.push({ version: head + 1, deleted: false, value: 'later', meta });
  if (fault === 'backwards' && versions.length > 1) versions = [...versions].reverse();
  if (fault === 'backwards' && versions.length === 1) versions.push({ ...last, version: head - 1 });
  if (fault === 'short') versions.pop();
  if (fault === 'no-versions') versions = [];
  if (fault === 'last-deleted') {
    versions[versions.length - 1] = deleted
      ? { ...last, deleted: false, value: valueAt(head) }
      : { version: head, deleted: true, meta };
  }
  if (fault === 'last-value' && !deleted) versions[versions.length - 1] = { ...last, value: 'another value' };
  const headLine = deleted ? { version: head, deleted } : { version: head, deleted, value: valueAt(head) };
  return { key, head: fault === 'no-head' ? null : headLine, versions };
}

/** The keys of one environment, generated. */
export const modelKeys: fc.Arbitrary<ModelKey[]> = fc
  .uniqueArray(
    fc.record({
      key: fc.constantFrom('API_KEY', 'DB_URL', 'TOKEN', 'cache.ttl'),
      top: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.constant(INT32_MAX - 1)),
      offsets: fc.subarray([1, 2, 3, 5, 7]),
      deleted: fc.boolean(),
      meta: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(PUSHED, BACKFILLED) },
        { weight: 1, arbitrary: fc.constantFrom(...ODD_META) },
      ),
      fault: fc.oneof(
        { weight: 5, arbitrary: fc.constant(null) },
        { weight: 2, arbitrary: fc.constantFrom(...FAULTS) },
      ),
    }),
    { minLength: 1, maxLength: 3, selector: (k) => k.key },
  )
  .map((keys) => keys.map((k) => keyOf(k.key, k.top, k.offsets, k.deleted, k.meta, k.fault)));

/** Whether a restore must take these keys, by the backup format's rules (the test's own reading). */
export function wellFormed(keys: readonly ModelKey[]): boolean {
  return keys.every(({ head, versions }) => {
    if (head === null || head.version >= INT32_MAX) return false;
    const last = versions.at(-1);
    if (!last || last.version !== head.version || last.deleted !== head.deleted) return false;
    if (!head.deleted && last.value !== head.value) return false;
    return versions.every(
      (v, i) => v.meta.ok && (i === 0 || v.version > versions[i - 1]!.version) && v.version <= head.version,
    );
  });
}

/** The lines of `keys` in environment `project/environment`: heads, tombstones, then versions. */
export function linesOfKeys(keys: readonly ModelKey[], project: string, environment: string): Line[] {
  const where = { project, environment };
  const at = '2026-11-30T12:00:00.000Z';
  const heads = keys.flatMap(({ key, head }) => {
    if (head === null) return [];
    return head.deleted
      ? [{ kind: 'deleted_secret', ...where, key, version: head.version, updated_at: at }]
      : [{ kind: 'secret', ...where, key, value: head.value, version: head.version, updated_at: at }];
  });
  const live = heads.filter((l) => l.kind === 'secret');
  const gone = heads.filter((l) => l.kind === 'deleted_secret');
  const versions = keys.flatMap(({ key, versions: list }) =>
    list.map(({ version, deleted, value, meta }) => ({
      kind: 'secret_version',
      ...where,
      key,
      version,
      deleted,
      ...(value === undefined ? {} : { value }),
      occurred_at: at,
      actor: meta.actor,
      device_id: meta.device_id,
      event_id: meta.event_id,
    })),
  );
  return [...live, ...gone, ...versions];
}
