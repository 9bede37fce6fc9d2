/** Rows of the rollups and running totals tables, as core's rollups. */
import type { Rollup } from '@latchkey/core/store';
import { json } from '../rows.js';

/** The figures columns both tables share. */
export const ROLLUP_COLUMNS = 'attempted, succeeded, failed, buckets, histogram';

/** A row holding {@link ROLLUP_COLUMNS} as a rollup. */
export const toRollup = (r: Record<string, unknown>): Rollup => ({
  attempted: Number(r['attempted']),
  succeeded: Number(r['succeeded']),
  failed: Number(r['failed']),
  buckets: json(r['buckets']),
  histogram: json(r['histogram']),
});
