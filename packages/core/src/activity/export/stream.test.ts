import { describe, expect, it } from 'vitest';
import { createCore } from '../../core.js';
import { createMemoryStore } from '../../memory/index.js';
import { EXPORT_PAGE } from './stream.js';

const TOKEN = 'lk_export_stream_test_token_0000000000000000';

describe('the activity export stream', () => {
  it('reads the store a page at a time, at most one page ahead of the client', async () => {
    const store = createMemoryStore();
    const core = createCore({ store });
    const org = await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    const total = EXPORT_PAGE * 3 + 17;
    for (let i = 0; i < total; i++) {
      await store.activity.append(org.id, {
        id: `evt_${String(i).padStart(10, '0')}`,
        type: 'test_event',
        occurred_at: new Date().toISOString(),
        organization: 'acme',
        actor: { type: 'system', id: 'test' },
        data: { i },
      });
    }
    const queries: { limit: number; oldestFirst?: boolean | undefined }[] = [];
    const list = store.activity.list.bind(store.activity);
    store.activity.list = (query) => {
      queries.push({ limit: query.limit, oldestFirst: query.oldestFirst });
      return list(query);
    };
    const listJson = store.activity.listJson.bind(store.activity);
    store.activity.listJson = (query) => {
      queries.push({ limit: query.limit, oldestFirst: query.oldestFirst });
      return listJson(query);
    };
    const response = await core.handle({
      method: 'GET',
      url: '/api/v2/organizations/acme/activity/export',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(queries).toEqual([]); // nothing read before the client asks
    const body = (response.body as AsyncIterable<string>)[Symbol.asyncIterator]();
    const first = await body.next();
    expect(first.value.split('\n').filter(Boolean)).toHaveLength(EXPORT_PAGE);
    // The chain head, the page the client took and the next one, asked for ahead: never more.
    expect(queries).toEqual([
      { limit: 1 },
      { limit: EXPORT_PAGE, oldestFirst: true },
      { limit: EXPORT_PAGE, oldestFirst: true },
    ]);
    let lines = EXPORT_PAGE;
    for (let chunk = await body.next(); !chunk.done; chunk = await body.next()) {
      lines += (chunk.value as string).split('\n').filter(Boolean).length;
    }
    expect(lines).toBe(total);
    expect(queries.filter((q) => q.oldestFirst)).toHaveLength(4);
  });
});
