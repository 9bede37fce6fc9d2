/**
 * The export's read on both engines: on PostgreSQL one streamed `COPY … TO STDOUT` in binary, on
 * PGlite keyset pages of joined lines. Either way the same lines as the paged `listJson`, filters
 * applied (hostile filter values included), cut at the chain position asked for; a PostgreSQL
 * stream abandoned part-way gives its connection back.
 */
import type { ActivityQuery, ActivityStreamQuery } from '@latchkey/core/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore, type SqlDriver, tablesOf } from '../src/index.js';
import { pgDriver } from '../src/pg.js';
import { joinedPages } from '../src/repositories/joined-pages.js';
import { DATABASE_URL, dropSchema, freshSchema, onPostgres } from './databases.js';
import { freshPglite } from './fresh-pglite.js';

const ORG = 'org_streamexport000000000000';
const TYPES = ['push_applied', 'member_added', 'project_created'];
const EVENTS = 60;

async function text(source: AsyncIterable<string | Uint8Array>, stopAfter = Number.POSITIVE_INFINITY) {
  const chunks: Buffer[] = [];
  for await (const chunk of source) {
    chunks.push(Buffer.from(chunk));
    if (chunks.length >= stopAfter) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

const FILTERS: [string, Omit<ActivityStreamQuery, 'organizationId'>][] = [
  ['everything', { throughSeq: EVENTS }],
  ['up to a chain position', { throughSeq: 41 }],
  ['some types', { types: ['member_added', 'project_created'], throughSeq: EVENTS }],
  [
    'a time range',
    { since: '2026-01-01T00:10:00.000Z', until: '2026-01-01T00:20:00.000Z', throughSeq: EVENTS },
  ],
  ['hostile type names', { types: ["x') OR TRUE --", 'a\\b', "push_applied'"], throughSeq: EVENTS }],
  ['an empty type list', { types: [], throughSeq: EVENTS }],
  ['nothing yet', { throughSeq: 0 }],
];

function describeEngine(
  name: string,
  open: () => Promise<{ store: PostgresStore; driver: SqlDriver }>,
  streams: boolean,
) {
  describe(`streamJson on ${name}`, () => {
    let store: PostgresStore;
    let driver: SqlDriver;
    beforeAll(async () => {
      ({ store, driver } = await open());
      await store.organizations.create({
        id: ORG,
        slug: 'acme',
        name: 'Acme',
        created_at: new Date().toISOString(),
      });
      for (let i = 0; i < EVENTS; i++) {
        await store.activity.append(ORG, {
          id: `evt_stream${i.toString().padStart(18, '0')}`,
          type: TYPES[i % 3]!,
          occurred_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
          organization: 'acme',
          project: 'web',
          environment: i % 2 ? 'prod' : 'staging',
          actor: { type: 'user', id: 'alice' },
          // Backslashes, quotes, a newline escape and non-ASCII text: kept byte for byte.
          data: { note: `line ${i} "quoted" \\ back\\slash \n é € 𝄞` },
        });
      }
    });
    afterAll(() => store?.close());

    const paged = async (query: ActivityStreamQuery) => {
      const listed = await store.activity.listJson({
        ...query,
        oldestFirst: true,
        limit: 1_000,
      } as ActivityQuery);
      const lines = listed.filter((e) => e.seq <= query.throughSeq).map((e) => e.json);
      return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
    };

    it.each(FILTERS)('streams the same lines as the paged read: %s', async (label, filter) => {
      const query = { organizationId: ORG, ...filter };
      const streamed = await text(store.activity.streamJson!(query));
      expect(streamed).toBe(await paged(query));
      const expectEmpty =
        label === 'hostile type names' || label === 'an empty type list' || label === 'nothing yet';
      expect(streamed === '').toBe(expectEmpty);
    });

    it.each(FILTERS)('reads keyset pages of joined lines, whatever the page size: %s', async (_, filter) => {
      const query = { organizationId: ORG, ...filter };
      const expected = await paged(query);
      const where = ['organization_id = $1'];
      const params: unknown[] = [ORG];
      if (filter.types) {
        params.push(filter.types);
        where.push(`type = ANY($${params.length}::text[])`);
      }
      if (filter.since) {
        params.push(filter.since, filter.until);
        where.push(`occurred_at >= $${params.length - 1}`, `occurred_at < $${params.length}`);
      }
      for (const size of [1, 7, 20, EVENTS, 1_000]) {
        const pages = joinedPages(driver, tablesOf(store.schema), where, params, filter.throughSeq, size);
        expect(await text(pages), `pages of ${size}`).toBe(expected);
      }
    });

    if (streams) {
      it('gives its connection back when abandoned part-way, and the next stream is whole', async () => {
        await text(store.activity.streamJson!({ organizationId: ORG, throughSeq: EVENTS }), 1);
        // With a pool of one, these would wait for ever on a connection the abandoned stream kept.
        expect((await store.activity.list({ organizationId: ORG, limit: 1 }))[0]!.seq).toBe(EVENTS);
        const whole = await text(store.activity.streamJson!({ organizationId: ORG, throughSeq: EVENTS }));
        expect(whole.split('\n').length - 1).toBe(EVENTS);
      });
    }
  });
}

describeEngine(
  'PGlite',
  async () => {
    const driver = await freshPglite();
    return { driver, store: await createPostgresStore({ driver }) };
  },
  false,
);
onPostgres('streamJson on PostgreSQL', () => {
  describeEngine(
    'PostgreSQL',
    async () => {
      // One connection: a stream that kept its connection would leave nothing for the next query.
      const driver = await pgDriver({ connectionString: DATABASE_URL, max: 1 });
      const schema = freshSchema();
      const store = await createPostgresStore({ driver, schema });
      return { driver, store: { ...store, close: () => store.close().then(() => dropSchema(schema)) } };
    },
    true,
  );
});
