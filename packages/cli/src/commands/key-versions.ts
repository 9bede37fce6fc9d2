/** A key's versions as the server lists them, read a page at a time; shared by `history` and `rollback`. */
import type { schemas } from '@latchkey/core';
import { seg } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { HttpClient } from '../http-client.js';
import { environmentPath } from '../server-secrets.js';

/** One version of a key as the server lists it (the API's own schema; a type only, nothing loaded). */
export type KeyVersion = schemas.Infer<typeof schemas.SecretVersionSchema>;

/** A page of a key's versions, newest first. */
export interface VersionPage {
  versions: KeyVersion[];
  next_cursor: string | null;
}

/** Reads one page of `key`'s versions. */
export function versionPage(
  client: HttpClient,
  where: { org: string; project: string; env: string },
  key: string,
  query: Record<string, string>,
): Promise<VersionPage> {
  const params = new URLSearchParams(query);
  return client.json<VersionPage>(
    'GET',
    `${environmentPath(where.org, where.project, where.env)}/secrets/${seg(key)}/versions?${params}`,
  );
}

/** A positive integer option, or a usage error naming it. */
export function positiveInteger(name: string, text: string, max = 2_147_483_647): number {
  const value = /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 1 && value <= max)) {
    throw new CliError(`${name} must be an integer from 1 to ${max}, not "${text}".`, EXIT.usage);
  }
  return value;
}
