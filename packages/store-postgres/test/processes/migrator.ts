/** A second app instance starting up: connects, waits for START_AT, then opens (and migrates) the store. Prints its migration report. */
import { createPostgresStore } from '../../src/index.js';
import { pgDriver } from '../../src/pg.js';
import { waitUntil } from './spawn.js';

const driver = await pgDriver({ connectionString: process.env['DATABASE_URL']!, max: 2 });
await driver.query('SELECT 1');
await waitUntil(Number(process.env['START_AT']));
const store = await createPostgresStore({ driver, schema: process.env['SCHEMA']! });
process.stdout.write(JSON.stringify(store.migrations));
await store.close();
