/**
 * "Export NDJSON" and "Export CSV": the organization's export route with the page's type and time
 * filters, downloaded as the file the server names. Fetched (not a plain link) because the API
 * token travels in a header, never in a URL.
 */

import { type ActivityFilters, apiQuery } from './activity-query.js';
import { API_BASE, ApiError, authHeaders } from './api.js';

const ACCEPT = { ndjson: 'application/x-ndjson', csv: 'text/csv' } as const;

/** The file name of a `content-disposition` answer, or a fallback. */
function fileName(disposition: string | null, format: keyof typeof ACCEPT): string {
  const named = /filename="([^"]+)"/.exec(disposition ?? '')?.[1];
  return named ?? `activity.${format}`;
}

/** Downloads the export of `org` under `filters` as `format`. */
export async function downloadExport(
  org: string,
  filters: ActivityFilters,
  format: keyof typeof ACCEPT,
): Promise<string> {
  const query = apiQuery(filters);
  query.set('format', format);
  const response = await fetch(`${API_BASE}${org}/activity/export?${query}`, {
    headers: authHeaders(ACCEPT[format]),
    credentials: 'same-origin',
    cache: 'no-store',
  });
  if (!response.ok) {
    throw new ApiError(response.status, 'http_error', `The export answered ${response.status}.`);
  }
  const name = fileName(response.headers.get('content-disposition'), format);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
