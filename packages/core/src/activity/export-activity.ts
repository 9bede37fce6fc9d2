/**
 * The export of an organization's activity: its lines as NDJSON (default) or CSV, oldest first,
 * streamed from the store, then recorded as one `activity_exported` event once the stream has ended
 * (so the export is not in its own output, and an export the client abandoned is not recorded).
 */
import type { IdGenerator } from '../runtime/ids.js';
import type { LatchkeyStore } from '../store/types.js';
import { type Acting, actingEvent } from './acting.js';
import type { AuditKey } from './checkpoint/checkpoint.js';
import type { CheckpointDeps } from './checkpoint/checkpoint-deps.js';
import { notedTreeHead, treeChainHead } from './checkpoint/tree-checkpoint.js';
import { csvHeader, csvRows } from './export/csv.js';
import { escapeLineSeparators } from './export/line-separators.js';
import { withInclusionLines } from './export/proof-lines.js';
import { type ExportFilter, exportJsonPages, exportPages } from './export/stream.js';
import { ExportTally } from './export/tally.js';

/** The formats an export is written in. */
export type ExportFormat = 'ndjson' | 'csv';

/** What the export reads, signs and records with. */
export interface ExportDeps extends CheckpointDeps {
  ids: IdGenerator;
  /** Signs the last NDJSON line and makes a filtered export carry inclusion proofs; without one, neither. */
  auditKey: AuditKey | undefined;
}

/** What the caller asks of the export, as the export query reads it. */
export interface ExportRequest {
  /** Default ndjson. */
  format?: ExportFormat | undefined;
  /** Comma-separated event types. */
  type?: string | undefined;
  /** RFC 3339, inclusive. */
  since?: string | undefined;
  /** RFC 3339, exclusive. */
  until?: string | undefined;
}

/** The export as it is streamed: its format, and its lines (nothing is read before the first is asked for). */
export interface ActivityExport {
  format: ExportFormat;
  lines: AsyncGenerator<string | Uint8Array>;
}

/** The export of the acting organization's events the request selects. */
export function exportActivity(deps: ExportDeps, acting: Acting, request: ExportRequest): ActivityExport {
  const format = request.format ?? 'ndjson';
  const filter: ExportFilter = {
    organizationId: acting.organization.id,
    types: request.type?.split(','),
    since: request.since === undefined ? undefined : new Date(request.since).toISOString(),
    until: request.until === undefined ? undefined : new Date(request.until).toISOString(),
  };
  return { format, lines: lines(deps, acting, filter, format) };
}

/** NDJSON from keyset pages, for stores that cannot stream: a chunk of lines per page. */
async function* jsonLines(store: LatchkeyStore, filter: ExportFilter, lastSeq: number) {
  for await (const page of exportJsonPages(store, filter, lastSeq))
    yield `${page.map((e) => e.json).join('\n')}\n`;
}

/** The export's lines, then its event. */
async function* lines(deps: ExportDeps, acting: Acting, filter: ExportFilter, format: ExportFormat) {
  const { store } = deps;
  const head = await treeChainHead(store, acting.organization.id);
  const lastSeq = head.seq;
  // A filtered export carries each event's inclusion proof in the tree its checkpoint signs.
  const filtered = filter.types !== undefined || filter.since !== undefined || filter.until !== undefined;
  const proofSize = filtered && deps.auditKey ? head.tree_size : undefined;
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
        : await withInclusionLines(store, acting.organization.id, proofSize, chunk);
    }
  }
  // The last line signs the chain head the export stopped at, so a cut or rewritten copy is caught.
  const key = deps.auditKey;
  if (format === 'ndjson' && key) {
    const checkpoint = await notedTreeHead(deps, key, acting.organization, head);
    yield `${JSON.stringify({ checkpoint })}\n`;
  }
  await store.activity.append(
    acting.organization.id,
    actingEvent(deps.ids, acting, 'activity_exported', {
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
