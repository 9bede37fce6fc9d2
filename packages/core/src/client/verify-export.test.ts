import { describe, expect, it } from 'vitest';
import { type ChainHead, sealEvent } from '../activity.js';
import { generateAuditKey, signCheckpoint, toAuditKey } from '../checkpoint.js';
import type { ActivityEvent } from '../model.js';
import { verifyActivityExport } from './verify-export.js';

const key = generateAuditKey();
const auditKey = toAuditKey(key.privateKeyPem);

function chain(n: number): ActivityEvent[] {
  const events: ActivityEvent[] = [];
  let head: ChainHead | null = null;
  for (let i = 1; i <= n; i++) {
    const event: ActivityEvent = sealEvent(
      {
        id: `evt_${String(i).padStart(8, '0')}`,
        type: i % 2 ? 'push_applied' : 'project_created',
        occurred_at: new Date(Date.UTC(2026, 10, 24, 0, 0, i)).toISOString(),
        organization: 'acme',
        actor: { type: 'user', id: 'admin' },
        data: { i },
      },
      head,
    );
    events.push(event);
    head = { seq: event.seq, hash: event.hash };
  }
  return events;
}

const checkpointOf = (e: ActivityEvent, k = auditKey) =>
  JSON.stringify({
    checkpoint: signCheckpoint(
      { organization: 'acme', seq: e.seq, hash: e.hash },
      k,
      '2026-11-24T01:00:00.000Z',
    ),
  });

function exportOf(events: ActivityEvent[], closing: string | null = checkpointOf(events.at(-1)!)): string[] {
  return [...events.map((e) => JSON.stringify(e)), ...(closing ? [closing] : [])];
}

const text = (lines: string[]) => `${lines.join('\n')}\n`;
/** With the organization's audit key pinned. */
const verify = (lines: string[]) => verifyActivityExport(text(lines), { publicKey: key.publicKey });
/** With no key: only the chain is checked. */
const verifyUnpinned = (lines: string[]) => verifyActivityExport(text(lines));

/** Re-seals an edited event so its own hash is consistent again, as a forger would. */
function forge(event: ActivityEvent, data: Record<string, unknown>): ActivityEvent {
  const { hash: _hash, ...rest } = { ...event, data };
  return sealEvent(rest, event.seq === 1 ? null : { seq: event.seq - 1, hash: event.prev_hash });
}

describe('verifyActivityExport', () => {
  const events = chain(10);

  it('accepts an intact export with its checkpoint, given as text or as chunks split anywhere', async () => {
    expect(await verify(exportOf(events))).toMatchObject({ ok: true, events: 10, head: { seq: 10 } });
    const bytes = new TextEncoder().encode(`${exportOf(events).join('\n')}\n`);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) =>
      bytes.subarray(i * 7, i * 7 + 7),
    );
    expect(await verifyActivityExport(chunks, { publicKey: key.publicKey })).toMatchObject({
      ok: true,
      events: 10,
    });
  });

  it('names an edited line', async () => {
    const lines = exportOf(events);
    lines[3] = lines[3]!.replace('"i":4', '"i":40');
    expect(await verify(lines)).toMatchObject({ ok: false, line: 4, reason: 'edited' });
  });

  it('names where lines were deleted', async () => {
    const lines = exportOf(events);
    lines.splice(3, 2);
    expect(await verify(lines)).toMatchObject({ ok: false, line: 4, reason: 'deleted' });
  });

  it('names two swapped lines as reordered', async () => {
    const lines = exportOf(events);
    [lines[3], lines[4]] = [lines[4]!, lines[3]!];
    expect(await verify(lines)).toMatchObject({ ok: false, line: 4, reason: 'reordered' });
  });

  it('names a re-hashed forged line by its next line’s link', async () => {
    const lines = exportOf(events);
    lines[3] = JSON.stringify(forge(events[3]!, { i: 'forged' }));
    expect(await verify(lines)).toMatchObject({ ok: false, line: 4, reason: 'edited' });
  });

  it('catches a truncated tail by the checkpoint, or by its absence when a key is pinned', async () => {
    const cut = exportOf(events.slice(0, 8), checkpointOf(events[9]!));
    expect(await verify(cut)).toMatchObject({ ok: false, line: 9, reason: 'truncated' });
    const noCheckpoint = exportOf(events.slice(0, 8), null);
    expect(await verify(noCheckpoint)).toMatchObject({ ok: false, line: 9, reason: 'truncated' });
    // Without a pinned key a bare chain cannot show it was cut: the verdict says what it checked.
    expect(await verifyUnpinned(noCheckpoint)).toMatchObject({ ok: true, events: 8, checkpoint: null });
  });

  it('catches a log rewritten wholesale, and a checkpoint signed by another key', async () => {
    // Someone with database access re-seals every event after the one they changed.
    const rewritten: ActivityEvent[] = [];
    let head: ChainHead | null = null;
    for (const event of events) {
      const { hash: _h, seq: _s, prev_hash: _p, ...draft } = event;
      const sealed = sealEvent({ ...draft, data: event.seq === 5 ? { i: 'rewritten' } : draft.data }, head);
      rewritten.push(sealed);
      head = { seq: sealed.seq, hash: sealed.hash };
    }
    const withOld = exportOf(rewritten, checkpointOf(events[9]!));
    expect(await verify(withOld)).toMatchObject({ ok: false, line: 11, reason: 'checkpoint_invalid' });
    const other = toAuditKey(generateAuditKey().privateKeyPem);
    const withForged = exportOf(rewritten, checkpointOf(rewritten[9]!, other));
    expect(await verify(withForged)).toMatchObject({ ok: false, line: 11, reason: 'checkpoint_invalid' });
    // The forged checkpoint is self-consistent: only the pinned key tells.
    expect(await verifyUnpinned(withForged)).toMatchObject({ ok: true });
  });

  it('refuses malformed lines and anything after the checkpoint', async () => {
    expect(await verify(['{"seq":1}'])).toMatchObject({ ok: false, line: 1, reason: 'malformed' });
    expect(await verify([...exportOf(events.slice(0, 2)), 'not json'])).toMatchObject({
      ok: false,
      line: 4,
      reason: 'malformed',
    });
    const first = JSON.stringify({ ...events[0], prev_hash: events[1]!.hash });
    expect(await verify([first])).toMatchObject({ ok: false, line: 1, reason: 'edited' });
  });
});
