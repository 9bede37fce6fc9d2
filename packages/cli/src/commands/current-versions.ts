/**
 * Each key's version now, as its history's newest entry says (a delete counts: it is a version
 * too; a key never written is version 0). Read through `…/secrets/{key}/versions?limit=1`, which
 * `activity:read` allows and which carries no value, a few keys at a time.
 */

import type { HttpClient } from '../http-client.js';
import { versionPage } from './key-versions.js';

/** How many keys are read at once. */
const AT_ONCE = 8;

/** The version of each of `keys` in the environment now. */
export async function currentVersions(
  client: HttpClient,
  where: { org: string; project: string; env: string },
  keys: string[],
): Promise<Map<string, number>> {
  const versions = new Map<string, number>();
  for (let i = 0; i < keys.length; i += AT_ONCE) {
    const batch = keys.slice(i, i + AT_ONCE);
    const pages = await Promise.all(batch.map((key) => versionPage(client, where, key, { limit: '1' })));
    for (const [j, key] of batch.entries()) versions.set(key, pages[j]!.versions[0]?.version ?? 0);
  }
  return versions;
}
