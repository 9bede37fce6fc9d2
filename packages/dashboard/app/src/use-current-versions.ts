/**
 * Each key's version now, from its history's newest entry (`…/secrets/{key}/versions?limit=1`,
 * which carries no value; a delete is a version too, a key never written is 0), a few keys at a
 * time. Read again whenever the request list is, so a key that moved shows as moved.
 */
import { api, seg } from './api.js';
import type { SecretVersionPage } from './change-types.js';
import { useRequest } from './use-request.js';

const AT_ONCE = 8;

/** The versions of `keys` in the environment at `envPath` now (undefined while loading). */
export function useCurrentVersions(envPath: string, keys: string[], refresh: string) {
  return useRequest(
    async () => {
      const versions = new Map<string, number>();
      for (let i = 0; i < keys.length; i += AT_ONCE) {
        const batch = keys.slice(i, i + AT_ONCE);
        const pages = await Promise.all(
          batch.map((key) =>
            api<SecretVersionPage>('GET', `${envPath}/secrets/${seg(key)}/versions?limit=1`),
          ),
        );
        for (const [j, key] of batch.entries()) versions.set(key, pages[j]!.versions[0]?.version ?? 0);
      }
      return versions;
    },
    `${envPath} ${keys.join(',')} ${refresh}`,
  );
}
