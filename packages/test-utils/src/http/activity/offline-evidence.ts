/**
 * Item: evidence an outsider checks offline. One event's proof (`…/activity/events/{seq}`) and
 * every NDJSON export's checkpoint line carry the C2SP note of their tree head, as the checkpoint
 * route gives it; `verifyActivityExport` refuses an export whose note is another head's or does not
 * verify; and Go's `note.Open` and `tlog.CheckRecord` check a tlog-proof made from the proof answer
 * and a filtered export from the files alone and the pinned verifier key.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyActivityExport } from '@latchkey/core';
import {
  type ActivityEvent,
  type Checkpoint,
  eventLeafData,
  eventLeafHash,
  formatTlogProof,
  fromBase64,
  openCheckpoint,
  verifyCheckpoint,
  verifyInclusion,
} from '@latchkey/core/client';
import { expect } from 'vitest';
import { describe, it, itUnless } from '../../keyed/keyed.js';
import { goOfflineCheck, goOfflineMissing } from '../../outside/go-offline-check.js';
import type { ConformanceContext } from '../harness/context.js';

const ACTIVITY = '/api/v2/organizations/acme/activity';
const ORIGIN = 'latchkey.local/acme';

interface Noted extends Checkpoint {
  note?: string;
  verifier_key?: string;
  cosignatures?: { witness: string; timestamp: number }[];
}

interface EventProof {
  event: ActivityEvent;
  proof: { leaf_index: number; tree_size: number; hashes: string[] };
  checkpoint: Noted;
}

/** Registers the offline evidence tests. */
export function describeOfflineEvidenceTests(ctx: ConformanceContext): void {
  /**
   * The organization's note key as an auditor who pinned the audit key learns it: the checkpoint's
   * `verifier_key`, which the audit key's signature of the checkpoint covers.
   */
  async function pinnedVerifierKey(): Promise<string> {
    const response = await ctx.send('GET', `${ACTIVITY}/checkpoint`);
    const checkpoint = response.json as Noted;
    expect(verifyCheckpoint(checkpoint, ctx.auditPublicKey)).toBe(true);
    expect(checkpoint.verifier_key?.split('+')[0]).toBe(ORIGIN);
    return checkpoint.verifier_key!;
  }
  /** The note must open with the pinned key and name exactly the JSON checkpoint's tree head. */
  async function expectNoteOf(checkpoint: Noted) {
    expect(typeof checkpoint.note).toBe('string');
    const vkey = await pinnedVerifierKey();
    const opened = await openCheckpoint({ note: checkpoint.note!, key: vkey });
    expect(opened).toMatchObject({ ok: true, origin: ORIGIN, treeSize: checkpoint.tree_size });
    if (!opened.ok) throw new Error(opened.message);
    expect(opened.rootHash).toEqual(fromBase64(checkpoint.root_hash!));
    expect(checkpoint.tree_size).toBe(checkpoint.seq);
    expect(checkpoint.verifier_key).toBe(vkey);
    return opened;
  }
  const proveEvent = async (seq: number) => {
    const response = await ctx.send('GET', `${ACTIVITY}/events/${seq}`);
    expect(response.status, response.text).toBe(200);
    return response.json as EventProof;
  };
  const exportText = async (query = '') => {
    const response = await ctx.send('GET', `${ACTIVITY}/export${query}`);
    expect(response.status).toBe(200);
    return response.text;
  };
  const lastLine = (text: string) =>
    (JSON.parse(text.trimEnd().split('\n').at(-1)!) as { checkpoint: Noted }).checkpoint;

  describe('offline evidence', () => {
    it('one event’s proof carries the note of its tree head, the checkpoint route’s own', async () => {
      const [newest] = await ctx.events();
      const { event, proof, checkpoint } = await proveEvent(Math.max(1, newest!.seq - 2));
      const opened = await expectNoteOf(checkpoint);
      expect(opened.treeSize).toBe(proof.tree_size);
      const route = await ctx.send('GET', `${ACTIVITY}/checkpoint?tree_size=${proof.tree_size}`);
      expect((route.json as { note: string }).note).toBe(checkpoint.note);
      const hashes = proof.hashes.map((h) => fromBase64(h)!);
      const input = { leafIndex: proof.leaf_index, treeSize: opened.treeSize, hashes };
      expect(verifyInclusion({ ...input, leafHash: eventLeafHash(event), rootHash: opened.rootHash })).toBe(
        true,
      );
    });

    it('every NDJSON export’s checkpoint line carries its note; a swapped or edited note fails the export', async () => {
      const options = { organization: 'acme', publicKey: ctx.auditPublicKey };
      const full = await exportText();
      const filtered = await exportText('?type=project_created');
      for (const text of [full, filtered]) {
        await expectNoteOf(lastLine(text));
        expect(await verifyActivityExport(text, options)).toMatchObject({ ok: true });
      }
      const checkpoint = lastLine(filtered);
      const earlier = await ctx.send('GET', `${ACTIVITY}/checkpoint?tree_size=1`);
      const otherHead = (earlier.json as { note: string }).note;
      const lines = filtered.trimEnd().split('\n');
      const withNote = (note: unknown) =>
        `${[...lines.slice(0, -1), JSON.stringify({ checkpoint: { ...checkpoint, note } })].join('\n')}\n`;
      const rootLine = checkpoint.note!.split('\n')[2]!;
      const flipped = `${rootLine[0] === 'A' ? 'B' : 'A'}${rootLine.slice(1)}`;
      for (const note of [otherHead, checkpoint.note!.replace(rootLine, flipped), 'not a note', 7]) {
        const verdict = await verifyActivityExport(withNote(note), options);
        expect(verdict, String(note)).toMatchObject({
          ok: false,
          reason: 'checkpoint_invalid',
          line: lines.length,
        });
      }
      // The same head's note with its signature broken: refused too.
      const signedByOther = checkpoint.note!.replace(/\u2014 (\S+) \S+/, '\u2014 $1 AAAAAAAA');
      expect(await verifyActivityExport(withNote(signedByOther), options)).toMatchObject({ ok: false });
    });

    itUnless(
      goOfflineMissing(),
      'Go checks one event’s tlog-proof and a filtered export offline from the files alone',
      async () => {
        const dir = mkdtempSync(join(tmpdir(), 'latchkey-offline-'));
        try {
          const file = (name: string, text: string) => {
            writeFileSync(join(dir, name), text);
            return join(dir, name);
          };
          const { event, proof, checkpoint } = await proveEvent(2);
          const tlogProof = (of: ActivityEvent, hashes = proof.hashes) =>
            formatTlogProof({
              index: proof.leaf_index,
              hashes,
              checkpoint: checkpoint.note!,
              extra: eventLeafData(of),
            });
          const honest = tlogProof(event);
          expect(honest.startsWith(`c2sp.org/tlog-proof@v1\nextra `)).toBe(true);
          expect(honest).toContain(`\nindex 1\n`);
          expect(honest.endsWith(`\n\n${checkpoint.note}`)).toBe(true);
          const proofs = [
            file('honest.tlog-proof', honest),
            file('edited.tlog-proof', tlogProof({ ...event, data: { ...event.data, forged: true } })),
            file('reordered.tlog-proof', tlogProof(event, [...proof.hashes].reverse())),
            file('resigned.tlog-proof', honest.replace(/\u2014 (\S+) \S+/, '\u2014 $1 AAAAAAAA')),
          ];
          const vkey = await pinnedVerifierKey();
          const proved = goOfflineCheck(vkey, 'tlog-proof', proofs);
          expect(proved[0], proved[0]!.error).toMatchObject({ ok: true, entries: 1, origin: ORIGIN });
          expect(proved[0]!.tree_size).toBe(proof.tree_size);
          // A single-leaf path cannot be reordered; the first two events' proofs have more than one.
          expect(proved.slice(1).map((v) => v.ok)).toEqual([false, proof.hashes.length < 2, false]);

          const filtered = await exportText('?type=project_created');
          const firstEvent = filtered.split('\n')[0]!;
          const edited = filtered.replace(
            firstEvent,
            firstEvent.replace('"project_created"', '"member_added"'),
          );
          const exports = [file('filtered.ndjson', filtered), file('edited.ndjson', edited)];
          const checked = goOfflineCheck(vkey, 'export', exports);
          const events = filtered.split('\n').filter((line) => line.startsWith('{"inclusion"')).length;
          expect(events).toBeGreaterThan(1);
          expect(checked[0], checked[0]!.error).toMatchObject({ ok: true, entries: events });
          expect(checked[1]).toMatchObject({ ok: false, error: expect.stringMatching(/CheckRecord/) });
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
      60_000,
    );
  });
}
