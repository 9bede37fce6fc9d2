import { describe, expect, it } from 'vitest';
import { createCore } from './core.js';
import { createMemoryStore } from './store/memory/index.js';
import type { LatchkeyStore } from './store/types.js';

const TOKEN = 'lk_unit_of_work_test_token_000000000000000000';
const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** A memory store whose activity log refuses one event type inside transactions. */
function storeFailingOn(type: string): LatchkeyStore {
  const store = createMemoryStore();
  return {
    ...store,
    transaction: (fn) =>
      store.transaction((tx) =>
        fn({
          ...tx,
          activity: {
            ...tx.activity,
            append: async (organizationId, draft) => {
              if (draft.type === type) throw new Error('the log is unavailable');
              return tx.activity.append(organizationId, draft);
            },
          },
        }),
      ),
  };
}

describe('every state change and its activity event are one unit of work', () => {
  it('writes no project when its project_created event cannot be written', async () => {
    const core = createCore({ store: storeFailingOn('project_created'), logger: { error: () => {} } });
    await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    const created = await core.handle({
      method: 'POST',
      url: '/api/v2/organizations/acme/projects',
      headers: auth,
      body: '{"slug":"web"}',
    });
    expect(created.status).toBe(500);
    const listed = await core.handle({
      method: 'GET',
      url: '/api/v2/organizations/acme/projects',
      headers: auth,
    });
    expect(JSON.parse(listed.body as string)).toEqual({ projects: [] });
  });

  it('writes no token when its token_created event cannot be written', async () => {
    const core = createCore({ store: storeFailingOn('token_created'), logger: { error: () => {} } });
    await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
    const before = await core.handle({
      method: 'GET',
      url: '/api/v2/organizations/acme/tokens',
      headers: auth,
    });
    const created = await core.handle({
      method: 'POST',
      url: '/api/v2/organizations/acme/tokens',
      headers: auth,
      body: '{"user":"admin","name":"ci"}',
    });
    expect(created.status).toBe(500);
    const after = await core.handle({
      method: 'GET',
      url: '/api/v2/organizations/acme/tokens',
      headers: auth,
    });
    expect(after.body).toEqual(before.body);
  });
});
