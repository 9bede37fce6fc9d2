/**
 * Upgrading a store whose data was sealed before it kept key ids: migration 6 records the ids it
 * finds in sealed data (without a check value), so a keyring without them is refused from the first
 * start; the first start whose keyring has them binds them with a check.
 */
import { createCore, generateKeyringKey, KeyringMismatchError } from '@latchkey/core';
import { describe, expect, it } from 'vitest';
import { createPostgresStore, migrate, tablesOf } from '../src/index.js';
import { acmeKeyring, setUpAcme, TOKEN } from './acme.js';
import { freshPglite } from './fresh-pglite.js';

describe('migration 6 on a store sealed before it kept key ids (PGlite)', () => {
  it('records the key ids of sealed data, and the first right keyring binds them', async () => {
    const driver = await freshPglite();
    const store = await createPostgresStore({ driver });
    try {
      const acme = await setUpAcme(store);
      const hook = await acme.core.handle({
        method: 'POST',
        url: '/api/v2/organizations/acme/audit-webhooks',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'siem', url: 'https://receiver.test/in' }),
      });
      expect(hook.status).toBe(201);
      // As it was before migration 6: no record of key ids.
      await driver.query('DROP TABLE latchkey.keyring_key_ids');
      await driver.query('DELETE FROM latchkey.latchkey_migrations WHERE id = 6');
      expect((await migrate(driver, tablesOf('latchkey'))).applied).toEqual([6]);
      expect(await store.keyIds.list()).toEqual([{ key_id: 'k1', check: null }]);

      const other = `k1:${generateKeyringKey()}`;
      for (const keyring of [undefined, `k2:${generateKeyringKey()}`]) {
        const refused = await createCore({ store, ...(keyring ? { keyring } : {}) })
          .verifyKeyring()
          .then(
            () => null,
            (error: unknown) => error,
          );
        expect(refused).toBeInstanceOf(KeyringMismatchError);
        expect((refused as KeyringMismatchError).check.missing).toEqual(['k1']);
      }
      await createCore({ store, keyring: acmeKeyring }).verifyKeyring();
      const [bound] = await store.keyIds.list();
      expect(bound?.check).toMatch(/^lk1\.k1\./);
      // From now on another key under k1 is told apart.
      const clash = await createCore({ store, keyring: other })
        .verifyKeyring()
        .then(
          () => null,
          (error: unknown) => error as KeyringMismatchError,
        );
      expect(clash?.check.mismatched).toEqual(['k1']);
    } finally {
      await store.close();
    }
  }, 120_000);
});
