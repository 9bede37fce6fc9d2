/**
 * `GET …/activity/export`: the organization's activity as NDJSON (default) or CSV, oldest first,
 * streamed as a download, its lines and their `activity_exported` event the export service's
 * (`activity/export-activity.ts`).
 */

import { exportActivity } from '../activity/export-activity.js';
import { defineRoute } from '../http/router.js';
import type { CoreResponse } from '../model/core-request.js';
import { ExportQuery } from '../schemas/api.js';
import { commonErrors } from './docs.js';
import { ORGANIZATION } from './paths.js';

const FORMATS = {
  ndjson: { contentType: 'application/x-ndjson; charset=utf-8', extension: 'ndjson' },
  csv: { contentType: 'text/csv; charset=utf-8; header=present', extension: 'csv' },
} as const;

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
      const { format, lines } = exportActivity(ctx.deps, ctx, ctx.query);
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
        body: lines,
      };
      return { response };
    },
  }),
];
