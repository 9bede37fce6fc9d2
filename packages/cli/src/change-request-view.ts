/**
 * A change request as the server shows it, its API paths, and how the CLI prints it: a table per
 * list and, for one request, its facts, its keys (with the version each was based on and, where
 * the caller may see it, the key's version now, a moved key marked) and its approvals.
 */
import type { schemas } from '@latchkey/core';
import { seg } from './context.js';
import { CliError, EXIT } from './exit-codes.js';
import type { Output } from './output.js';
import { environmentPath } from './server-secrets.js';

/** A change request (`chr_…`), as the API answers it (the API's own schema; a type only). */
export type ChangeRequest = schemas.Infer<typeof schemas.ChangeRequestView>;

/** One change of a request; `value` only with `include_values=true`. */
export type RequestedChange = ChangeRequest['changes'][number];

/** A page of change requests, newest first. */
export type ChangeRequestPage = schemas.Infer<typeof schemas.ChangeRequestPage>;

/** A change request id as the server makes them, or a usage error. */
export function requestId(id: string): string {
  if (!/^chr_[A-Za-z0-9_-]{1,96}$/.test(id)) {
    throw new CliError(`"${id}" is not a change request id (chr_…).`, EXIT.usage);
  }
  return id;
}

type Scope = { org: string; project: string; env: string };

/** `…/environments/{environment}/change-requests`. */
export const changeRequestsPath = (where: Scope) =>
  `${environmentPath(where.org, where.project, where.env)}/change-requests`;

/** `…/change-requests/{id}`, or one of its actions. */
export const changeRequestPath = (where: Scope, id: string, action?: string) =>
  `${changeRequestsPath(where)}/${seg(id)}${action ? `/${action}` : ''}`;

/** The requests as one table: newest first, as the server lists them. */
export function printRequestTable(out: Output, requests: ChangeRequest[]): void {
  out.table(
    ['id', 'status', 'title', 'by', 'keys', 'approvals', 'created', 'expires'],
    requests.map((r) => [
      r.id,
      r.status,
      r.title,
      r.created_by,
      r.changes.length,
      `${r.approvals.length}/${r.required_approvals}`,
      r.created_at,
      r.expires_at,
    ]),
  );
}

/** One request: its facts, its keys (with `current` versions where known) and its approvals. */
export function printRequest(out: Output, request: ChangeRequest, current?: Map<string, number>): void {
  out.line(`${request.id}  ${request.status}  ${request.title}`);
  if (request.description) out.line(request.description);
  out.line(
    `Proposed by ${request.created_by} (device ${request.device_id}) at ${request.created_at}; expires ${request.expires_at}.`,
  );
  const values = request.changes.some((c) => c.value !== undefined);
  const moved = (c: RequestedChange) => current?.has(c.key) && current.get(c.key) !== c.if_version;
  out.table(
    ['key', 'change', 'based on', ...(current ? ['now', ''] : []), ...(values ? ['value'] : [])],
    request.changes.map((c) => [
      c.key,
      c.action,
      c.if_version,
      ...(current ? [current.get(c.key), moved(c) ? 'MOVED' : ''] : []),
      ...(values ? [c.action === 'delete' ? '(deleted)' : c.value] : []),
    ]),
  );
  if (request.changes.some(moved)) {
    out.line('A key marked MOVED changed since the request was made: applying it will be refused.');
  }
  out.line(`Approvals: ${request.approvals.length} of ${request.required_approvals}.`);
  for (const a of request.approvals) {
    out.line(
      `  ${a.user} at ${a.approved_at}${a.device_id ? ` (signed, ${a.device_id})` : ''}${a.comment ? `: ${a.comment}` : ''}`,
    );
  }
  if (request.rejection) {
    out.line(`Rejected by ${request.rejection.user} at ${request.rejection.at}: ${request.rejection.reason}`);
  }
  if (request.applied) out.line(`Applied as event ${request.applied.event_id}.`);
}
