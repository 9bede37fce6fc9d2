import { describe, expect, it } from 'vitest';
import { createCore } from './core.js';
import { createMemoryStore } from './memory/index.js';
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

/** A core on that store, bootstrapped, and a POST whose event fails: answers 500 and changes nothing. */
async function expectNothingWritten(type: string, path: string, body: string, list: string) {
  const core = createCore({ store: storeFailingOn(type), logger: { error: () => {} } });
  await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  const url = `/api/v2/organizations/acme/${list}`;
  const before = await core.handle({ method: 'GET', url, headers: auth });
  const created = await core.handle({
    method: 'POST',
    url: `/api/v2/organizations/acme/${path}`,
    headers: auth,
    body,
  });
  expect(created.status).toBe(500);
  const after = await core.handle({ method: 'GET', url, headers: auth });
  expect(after.body).toEqual(before.body);
  return JSON.parse(after.body as string);
}

describe('every state change and its activity event are one unit of work', () => {
  it('writes no project when its project_created event cannot be written', async () => {
    expect(await expectNothingWritten('project_created', 'projects', '{"slug":"web"}', 'projects')).toEqual({
      projects: [],
    });
  });

  it('writes no token when its token_created event cannot be written', async () => {
    await expectNothingWritten('token_created', 'tokens', '{"user":"admin","name":"ci"}', 'tokens');
  });

  it('adds no member when its member_added event cannot be written', async () => {
    await expectNothingWritten('member_added', 'members', '{"user":"dev","role":"developer"}', 'members');
  });
});
