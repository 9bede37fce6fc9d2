/**
 * A restore in steps (the memory store) that fails once it has cleared the organization, part way
 * through writing it (here the store refuses the third batch of versions), leaves nothing half
 * written: the commit answers 500, the organization is empty but for the restorer, its owner, it
 * answers again at once, and the session is gone.
 */
import { createCore, createMemoryStore, generateAuditKey } from '@latchkey/core';
import { expect, it } from 'vitest';
import { contentOf, linesOf, manifestOf, partsOf, withLargeHistory } from '../src/index.js';

const TOKEN = 'lk_restore_in_steps_test_token_000000000000';

it('a restore in steps that fails half written leaves the organization empty, the restorer its owner', async () => {
  const store = createMemoryStore();
  const failures: string[] = [];
  const core = createCore({
    store,
    auditKey: generateAuditKey().privateKeyPem,
    logger: { error: (message) => failures.push(message) },
  });
  await core.bootstrap({ organization: 'acme', user: 'admin', token: TOKEN });
  const send = async (method: string, path: string, body?: unknown) => {
    const answer = await core.handle({
      method,
      url: `/api/v2/organizations/acme${path}`,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    let text = '';
    if (typeof answer.body === 'string') text = answer.body;
    else if (answer.body) {
      for await (const chunk of answer.body as AsyncIterable<string | Uint8Array>) {
        text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      }
    }
    return { status: answer.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
  };
  expect((await send('POST', '/projects', { slug: 'old' })).status).toBe(201);
  const backup = await send('GET', '/backup');
  expect(backup.status).toBe(200);
  const content = contentOf(withLargeHistory(linesOf(backup.text)));
  const begun = await send('POST', '/restores', { manifest: manifestOf(content), force: true });
  expect(begun.status).toBe(201);
  const id = begun.json()['id'] as string;
  for (const [i, data] of partsOf(content).entries()) {
    expect((await send('PUT', `/restores/${id}/parts/${i}`, { data })).status).toBe(200);
  }

  let batches = 0;
  const insert = store.restores.insertSecretVersions;
  store.restores.insertSecretVersions = async (versions) => {
    if (++batches === 3) throw new Error('the store refused a batch');
    return insert(versions);
  };
  const commit = await send('POST', `/restores/${id}/commit`);
  expect(commit.status).toBe(500);
  expect(failures).toEqual(['unexpected error while handling a request']);

  // Written part way, then emptied: nothing of the backup nor of what it replaced, but the restorer.
  expect((await send('GET', '/projects')).json()['projects']).toEqual([]);
  const members = (await send('GET', '/members')).json()['members'] as { user: string; role: string }[];
  expect(members.map((m) => [m.user, m.role])).toEqual([['admin', 'owner']]);
  expect((await send('POST', `/restores/${id}/commit`)).status).toBe(404);
  // The organization takes a restore again.
  expect((await send('POST', '/restores', { manifest: manifestOf(content), force: true })).status).toBe(201);
});
