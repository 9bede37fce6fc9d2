/**
 * The note on an export's checkpoint line, checked by `verifyActivityExport` with the pinned key:
 * the server's own export verifies with the raw key and with its SPKI PEM; a note of another
 * organization's log, of another key or of another head fails; an export without a note (made
 * before notes) is checked by its JSON alone.
 */
import { createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateAuditKey, toAuditKey } from '../activity/checkpoint/checkpoint.js';
import { signCheckpointNote } from '../activity/checkpoint/checkpoint-note.js';
import { createCore } from '../core.js';
import { fromBase64 } from '../encoding/base64.js';
import { verifyActivityExport } from './node-chain-crypto.js';

const TOKEN = 'lk_export_note_test_token_000000000000000';
const key = generateAuditKey();

async function exported(): Promise<string[]> {
  const core = createCore({ auditKey: key.privateKeyPem });
  await core.bootstrap({ organization: 'acme', user: 'owner', token: TOKEN });
  const send = (method: string, path: string, body?: unknown) =>
    core.handle({
      method,
      url: `/api/v2/organizations/acme${path}`,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  for (const slug of ['a', 'b']) expect((await send('POST', '/projects', { slug })).status).toBe(201);
  const response = await send('GET', '/activity/export');
  let text = '';
  for await (const chunk of response.body as AsyncIterable<string>) text += chunk;
  return text.trimEnd().split('\n');
}

const withCheckpoint = (lines: string[], edit: (checkpoint: Record<string, unknown>) => void) => {
  const { checkpoint } = JSON.parse(lines.at(-1)!) as { checkpoint: Record<string, unknown> };
  edit(checkpoint);
  return `${[...lines.slice(0, -1), JSON.stringify({ checkpoint })].join('\n')}\n`;
};

describe('the note of an export’s checkpoint line', () => {
  it('opens with the pinned key, raw or PEM; another log, key or head fails; no note is the JSON alone', async () => {
    const lines = await exported();
    const text = `${lines.join('\n')}\n`;
    const pem = createPublicKey({
      key: Buffer.concat([
        Buffer.from('302a300506032b6570032100', 'hex'),
        Buffer.from(key.publicKey, 'base64url'),
      ]),
      format: 'der',
      type: 'spki',
    })
      .export({ format: 'pem', type: 'spki' })
      .toString();
    for (const publicKey of [key.publicKey, pem]) {
      expect(await verifyActivityExport(text, { organization: 'acme', publicKey })).toMatchObject({
        ok: true,
      });
    }
    const options = { organization: 'acme', publicKey: key.publicKey };
    const { checkpoint } = JSON.parse(lines.at(-1)!) as {
      checkpoint: { tree_size: number; root_hash: string; note: string };
    };
    const head = { size: checkpoint.tree_size, rootHash: fromBase64(checkpoint.root_hash)! };
    const note = async (signer: ReturnType<typeof toAuditKey>, origin: string, size = head.size) => {
      const signed = await signCheckpointNote(signer, origin, { ...head, size });
      return `${signed.body}\n${signed.signatureLine}`;
    };
    const own = toAuditKey(key.privateKeyPem);
    const other = toAuditKey(generateAuditKey().privateKeyPem);
    // The server's note is exactly this (no witnesses here): the same body and signature.
    expect(checkpoint.note).toBe(await note(own, 'latchkey.local/acme'));
    const refused = [
      await note(own, 'latchkey.local/acme2'),
      await note(other, 'latchkey.local/acme'),
      await note(own, 'latchkey.local/acme', head.size - 1),
    ];
    for (const swapped of refused) {
      const verdict = await verifyActivityExport(
        withCheckpoint(lines, (c) => {
          c['note'] = swapped;
        }),
        options,
      );
      expect(verdict).toMatchObject({ ok: false, reason: 'checkpoint_invalid', line: lines.length });
    }
    const without = withCheckpoint(lines, (c) => {
      delete c['note'];
    });
    expect(await verifyActivityExport(without, options)).toMatchObject({ ok: true });
  });
});
