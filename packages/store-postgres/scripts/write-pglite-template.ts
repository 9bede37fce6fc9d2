/**
 * Writes `assets/pglite-empty.tar.gz`, the empty database a new PGlite data directory starts from
 * (see `src/pglite-template.ts`): PGlite's own initdb, run once here, checkpointed and dumped. Run
 * it again after upgrading `@electric-sql/pglite` (`template.test.ts` fails until then):
 *
 *   npx tsx packages/store-postgres/scripts/write-pglite-template.ts
 */
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_TEMPLATE } from '../src/pglite-template.js';

const db = await PGlite.create('memory://');
try {
  await db.query('CHECKPOINT');
  const tar = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
  writeFileSync(PGLITE_TEMPLATE, gzipSync(tar, { level: 9 }));
  console.log(`${PGLITE_TEMPLATE}: ${tar.length} bytes, gzipped`);
} finally {
  await db.close();
}
