/**
 * `GET …/activity/export`: the organization's activity as NDJSON (default) or CSV, oldest first,
 * streamed from the store, recorded as one `activity_exported` event once the stream has ended (so
 * the export is not in its own output, and an export the client abandoned is not recorded).
 */
import { csvHeader, csvRows } from '../activity-export/csv.js';
import { chainHead, type ExportFilter, exportJsonPages, exportPages } from '../activity-export/stream.js';
import { signCheckpoint } from '../checkpoint.js';
import type { CoreResponse } from '../http.js';
import type { ActivityEvent } from '../model.js';
import { defineRoute, type RouteContext } from '../router.js';
import { ExportQuery } from '../schemas.js';
import { commonErrors } from './docs.js';

type Query = typeof ExportQuery._zod.output;

const FORMATS = {
  ndjson: { contentType: 'application/x-ndjson; charset=utf-8', extension: 'ndjson' },
  csv: { contentType: 'text/csv; charset=utf-8; header=present', extension: 'csv' },
} as const;

/** The export's lines, then its event. */
async function* lines(ctx: RouteContext<undefined, Query>, filter: ExportFilter, format: 'ndjson' | 'csv') {
  const store = ctx.services.store;
  const head = await chainHead(store, ctx.organization.id);
  const lastSeq = head.seq;
  if (format === 'csv') yield csvHeader();
  let count = 0;
  let first: number | undefined;
  let last: number | undefined;
  const pages =
    format === 'csv' ? exportPages(store, filter, lastSeq) : exportJsonPages(store, filter, lastSeq);
  for await (const page of pages) {
    count += page.length;
    first ??= page[0]!.seq;
    last = page[page.length - 1]!.seq;
    yield format === 'csv'
      ? csvRows(page as ActivityEvent[])
      : `${(page as { json: string }[]).map((e) => e.json).join('\n')}\n`;
  }
  // The last line signs the chain head the export stopped at, so a cut or rewritten copy is caught.
  const key = ctx.services.auditKey;
  if (format === 'ndjson' && key) {
    const checkpoint = signCheckpoint(
      { organization: ctx.organization.slug, ...head },
      key,
      new Date(ctx.services.now()).toISOString(),
    );
    yield `${JSON.stringify({ checkpoint })}\n`;
  }
  await store.activity.append(
    ctx.organization.id,
    ctx.draft('activity_exported', {
      format,
      events: count,
      first_seq: first ?? null,
      last_seq: last ?? null,
      chain_seq: lastSeq,
      filter: { types: filter.types ?? null, since: filter.since ?? null, until: filter.until ?? null },
    }),
  );
}

export const exportRoutes = [
  defineRoute({
    method: 'GET',
    path: '/organizations/{organization}/activity/export',
    operationId: 'exportActivity',
    summary:
      'The activity log, oldest first, streamed as NDJSON (one event per line, default) or CSV (RFC 4180, columns seq,id,type,occurred_at,organization,project,environment,actor_type,actor_id,device_id,data,prev_hash,hash).',
    tag: 'Activity',
    permission: 'activity:export',
    query: ExportQuery,
    responses: {
      200: {
        mediaTypes: ['application/x-ndjson', 'text/csv'],
        description:
          'The export, as a download (application/x-ndjson or text/csv). With an audit key, the NDJSON ends with one line {"checkpoint": {...}} signing the chain head the export stopped at.',
      },
      ...commonErrors,
    },
    async handler(ctx) {
      const format = ctx.query.format ?? 'ndjson';
      const filter: ExportFilter = {
        organizationId: ctx.organization.id,
        types: ctx.query.type?.split(','),
        since: ctx.query.since === undefined ? undefined : new Date(ctx.query.since).toISOString(),
        until: ctx.query.until === undefined ? undefined : new Date(ctx.query.until).toISOString(),
      };
      const stamp = ctx.at.replace(/[:.]/g, '-');
      const { contentType, extension } = FORMATS[format];
      const response: CoreResponse = {
        status: 200,
        headers: {
          'content-type': contentType,
          'content-disposition': `attachment; filename="${ctx.organization.slug}-activity-${stamp}.${extension}"`,
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        },
        body: lines(ctx as RouteContext<undefined, Query>, filter, format),
      };
      return { response };
    },
  }),
];
