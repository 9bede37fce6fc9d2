/**
 * `GET …/activity/export`: the organization's activity as NDJSON (default) or CSV, oldest first,
 * streamed from the store, recorded as one `activity_exported` event once the stream has ended (so
 * the export is not in its own output, and an export the client abandoned is not recorded).
 */

import { notedTreeHead, treeChainHead } from '../activity/checkpoint/tree-checkpoint.js';
import { csvHeader, csvRows } from '../activity/export/csv.js';
import { escapeLineSeparators } from '../activity/export/line-separators.js';
import { withInclusionLines } from '../activity/export/proof-lines.js';
import { type ExportFilter, exportJsonPages, exportPages } from '../activity/export/stream.js';
import { ExportTally } from '../activity/export/tally.js';
import { defineRoute, type RouteContext } from '../http/router.js';
import type { CoreResponse } from '../model/core-request.js';
import { ExportQuery } from '../schemas/api.js';
import type { LatchkeyStore } from '../store/types.js';
import { commonErrors } from './docs.js';
import { ORGANIZATION } from './paths.js';

type Query = typeof ExportQuery._zod.output;

const FORMATS = {
  ndjson: { contentType: 'application/x-ndjson; charset=utf-8', extension: 'ndjson' },
  csv: { contentType: 'text/csv; charset=utf-8; header=present', extension: 'csv' },
} as const;

/** NDJSON from keyset pages, for stores that cannot stream: a chunk of lines per page. */
async function* jsonLines(store: LatchkeyStore, filter: ExportFilter, lastSeq: number) {
  for await (const page of exportJsonPages(store, filter, lastSeq))
    yield `${page.map((e) => e.json).join('\n')}\n`;
}

/** The export's lines, then its event. */
async function* lines(ctx: RouteContext<undefined, Query>, filter: ExportFilter, format: 'ndjson' | 'csv') {
  const store = ctx.deps.store;
  const head = await treeChainHead(store, ctx.organization.id);
  const lastSeq = head.seq;
  // A filtered export carries each event's inclusion proof in the tree its checkpoint signs.
  const filtered = filter.types !== undefined || filter.since !== undefined || filter.until !== undefined;
  const proofSize = filtered && ctx.deps.auditKey ? head.tree_size : undefined;
  const tally = new ExportTally();
  if (format === 'csv') {
    yield csvHeader();
    for await (const page of exportPages(store, filter, lastSeq)) {
      tally.addPage(page);
      yield csvRows(page);
    }
  } else {
    const chunks =
      store.activity.streamJson?.({ ...filter, throughSeq: lastSeq }) ?? jsonLines(store, filter, lastSeq);
    for await (const stored of chunks) {
      // Stored JSON keeps U+2028, U+2029 and U+0085 raw; on the wire each line must stay one line.
      const chunk = escapeLineSeparators(stored);
      tally.addLines(chunk);
      yield proofSize === undefined
        ? chunk
        : await withInclusionLines(store, ctx.organization.id, proofSize, chunk);
    }
  }
  // The last line signs the chain head the export stopped at, so a cut or rewritten copy is caught.
  const key = ctx.deps.auditKey;
  if (format === 'ndjson' && key) {
    const checkpoint = await notedTreeHead(ctx.deps, key, ctx.organization, head);
    yield `${JSON.stringify({ checkpoint })}\n`;
  }
  await store.activity.append(
    ctx.organization.id,
    ctx.event('activity_exported', {
      format,
      events: tally.count,
      first_seq: tally.firstSeq,
      last_seq: tally.lastSeq,
      chain_seq: lastSeq,
      filter: {
        types: filter.types ? [...filter.types] : null,
        since: filter.since ?? null,
        until: filter.until ?? null,
      },
    }),
  );
}

export const exportRoutes = [
  defineRoute('GET', `${ORGANIZATION}/activity/export`, {
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
          'The export, as a download (application/x-ndjson or text/csv). NDJSON writes U+2028, U+2029 and U+0085 as JSON escapes, so every line splitter sees one line per event. With an audit key, the NDJSON ends with one line {"checkpoint": {...}} signing the chain head the export stopped at (and its Merkle tree size and root hash), with the same tree head as a C2SP checkpoint note and its cosignatures (note, verifier_key, cosignatures, as GET …/activity/checkpoint gives them); an export filtered by since, until or type has after each event one line {"inclusion": {"seq", "leaf_index", "tree_size", "hashes"}}: its RFC 6962 audit path in that tree, so the events are checkable without the rest of the log.',
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
