import { describe, expect, it } from 'vitest';
import { type ChainHead, sealEvent } from '../activity/chain.js';
import { generateAuditKey, signCheckpoint, toAuditKey } from '../activity/checkpoint/checkpoint.js';
import type { ActivityEvent } from '../model/model.js';
import { verifyActivityExport as verifyInNode } from './node-chain-crypto.js';
import { verifyActivityExport as verifyInBrowser } from './web-verify-export.js';

const key = generateAuditKey();
const other = generateAuditKey();

function chain(n: number): ActivityEvent[] {
  const events: ActivityEvent[] = [];
  let head: ChainHead | null = null;
  for (let i = 1; i <= n; i++) {
    const event = sealEvent(
      {
        id: `evt_${i}`,
        type: 'push_force_overwrite',
        occurred_at: new Date(Date.UTC(2026, 10, 27, 0, 0, i)).toISOString(),
        organization: 'acme',
        actor: { type: 'user', id: 'admin' },
        data: { keys: [{ key: 'DB_URL', server_version: i, client_if_version: i - 1, new_version: i + 1 }] },
      },
      head,
    );
    events.push(event);
    head = { seq: event.seq, hash: event.hash };
  }
  return events;
}

const events = chain(20);
const closing = (e: ActivityEvent) =>
  JSON.stringify({
    checkpoint: signCheckpoint(
      { organization: 'acme', seq: e.seq, hash: e.hash },
      toAuditKey(key.privateKeyPem),
      '2026-11-27T01:00:00.000Z',
    ),
  });
const lines = (list: ActivityEvent[]) =>
  [...list.map((e) => JSON.stringify(e)), closing(list.at(-1)!)].join('\n');

describe('the browser’s verifyActivityExport (WebCrypto) reaches the CLI’s verdicts (Node crypto)', () => {
  it.each([
    ['an intact export', lines(events), key.publicKey],
    [
      'an edited line',
      lines(events.map((e) => (e.seq === 7 ? { ...e, data: { edited: true } } : e))),
      key.publicKey,
    ],
    ['a deleted line', lines(events.filter((e) => e.seq !== 12)), key.publicKey],
    [
      'a cut export',
      lines(events.slice(0, 15)).replace(/\n[^\n]*$/, `\n${closing(events.at(-1)!)}`),
      key.publicKey,
    ],
    ['another key', lines(events), other.publicKey],
    ['no key', lines(events), undefined],
  ])('%s', async (_, text, publicKey) => {
    const options = { organization: 'acme', ...(publicKey ? { publicKey } : {}) };
    const inNode = await verifyInNode(text, options);
    expect(await verifyInBrowser(text, options)).toEqual(inNode);
    expect(await verifyInBrowser(new TextEncoder().encode(text), options)).toEqual(inNode);
  });
});
