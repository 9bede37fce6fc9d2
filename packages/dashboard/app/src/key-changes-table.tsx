/**
 * The keys of a `push_force_overwrite` (each key's overwritten server version, the version the
 * client expected and the one written: the push won) or of a `push_conflict`/`version_conflict`
 * (the server's version and the client's expected one: the push lost, nothing was written).
 */
import type { ActivityEvent } from './types.js';

interface KeyRow {
  key: string;
  server_version?: number;
  client_if_version?: number | null;
  new_version?: number;
  deleted?: boolean;
}

const CONFLICTS = new Set(['push_conflict', 'version_conflict']);

/** Whether `event` carries a table of keys and versions. */
export const hasKeyTable = (event: ActivityEvent) =>
  event.type === 'push_force_overwrite' || CONFLICTS.has(event.type);

const version = (v: number | null | undefined) => (v === null || v === undefined ? '—' : String(v));

/** The key rows of `event`'s data, read defensively (the data is shown as stored). */
function rowsOf(event: ActivityEvent): KeyRow[] {
  const list = event.type === 'push_force_overwrite' ? event.data['keys'] : event.data['conflicts'];
  return Array.isArray(list) ? (list.filter((r) => typeof r?.key === 'string') as KeyRow[]) : [];
}

/** The table, captioned with who won. */
export function KeyChangesTable({ event }: { event: ActivityEvent }) {
  const forced = event.type === 'push_force_overwrite';
  const rows = rowsOf(event);
  return (
    <table class="key-changes">
      <caption>
        {forced
          ? 'Forced: this push overwrote the server’s versions.'
          : 'Conflict: the server’s versions stood; this push wrote nothing.'}
      </caption>
      <thead>
        <tr>
          <th scope="col">Key</th>
          <th scope="col">Server version</th>
          <th scope="col">Client expected</th>
          {forced && <th scope="col">New version</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">
              <code>{row.key}</code>
              {row.deleted ? ' (deleted)' : ''}
            </th>
            <td>{version(row.server_version)}</td>
            <td>{version(row.client_if_version)}</td>
            {forced && <td>{version(row.new_version)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
