import { describe, expect, it } from 'vitest';
import { type ChainHead, sealEvent } from '../activity/chain.js';
import { generateAuditKey, signCheckpoint, toAuditKey } from '../activity/checkpoint/checkpoint.js';
import type { ActivityDraft, ActivityEvent } from '../model/model.js';
import { verifyActivityExport } from './node-chain-crypto.js';
import type { VerifyExportOptions } from './verify-export.js';

const key = generateAuditKey();
const auditKey = toAuditKey(key.privateKeyPem);

/** A chain of `n` events; `shape` may change any event's draft (its organization, type, data). */
function chain(
  n: number,
  shape: (i: number, draft: ActivityDraft) => ActivityDraft = (_, draft) => draft,
): ActivityEvent[] {
  const events: ActivityEvent[] = [];
  let head: ChainHead | null = null;
  for (let i = 1; i <= n; i++) {
    const draft: ActivityDraft = {
      id: `evt_${String(i).padStart(8, '0')}`,
      type: i % 2 ? 'push_applied' : 'project_created',
      occurred_at: new Date(Date.UTC(2026, 10, 24, 0, 0, i)).toISOString(),
      organization: 'acme',
      actor: { type: 'user', id: 'admin' },
      data: { i },
    };
    const event: ActivityEvent = sealEvent(shape(i, draft), head);
    events.push(event);
    head = { seq: event.seq, hash: event.hash };
  }
  return events;
}

const checkpointOf = (e: ActivityEvent, k = auditKey, organization = e.organization) =>
  JSON.stringify({
    checkpoint: signCheckpoint({ organization, seq: e.seq, hash: e.hash }, k, '2026-11-24T01:00:00.000Z'),
  });

function exportOf(events: ActivityEvent[], closing: string | null = checkpointOf(events.at(-1)!)): string[] {
  return [...events.map((e) => JSON.stringify(e)), ...(closing ? [closing] : [])];
}

const text = (lines: string[]) => `${lines.join('\n')}\n`;
/** With the organization's audit key pinned. */
const verify = (lines: string[], options: Partial<VerifyExportOptions> = {}) =>
  verifyActivityExport(text(lines), { organization: 'acme', publicKey: key.publicKey, ...options });
/** With no key: only the chain is checked. */
const verifyUnpinned = (lines: string[], options: Partial<VerifyExportOptions> = {}) =>
  verifyActivityExport(text(lines), { organization: 'acme', ...options });

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
    expect(
      await verifyActivityExport(chunks, { organization: 'acme', publicKey: key.publicKey }),
    ).toMatchObject({
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
    for (const empty of ['{"checkpoint":null}', '{"checkpoint":"acme"}']) {
      expect(await verifyUnpinned([...exportOf(events, null), empty])).toMatchObject({
        ok: false,
        line: 11,
        reason: 'malformed',
      });
    }
    const first = JSON.stringify({ ...events[0], prev_hash: events[1]!.hash });
    expect(await verify([first])).toMatchObject({ ok: false, line: 1, reason: 'edited' });
  });

  it('requires the chain’s first event unless the export is declared partial', async () => {
    const six = chain(6);
    // The first 5 of 6 events cut: the last line and its checkpoint are genuine.
    const cut = exportOf(six.slice(5));
    expect(await verify(cut)).toMatchObject({ ok: false, line: 1, reason: 'deleted' });
    expect(await verifyUnpinned(cut)).toMatchObject({ ok: false, line: 1, reason: 'deleted' });
    expect(await verify(cut, { partial: true })).toMatchObject({ ok: true, events: 1, head: { seq: 6 } });
    expect(await verify(exportOf(six.slice(2)), { partial: true })).toMatchObject({ ok: true, events: 4 });
  });

  it('still checks the links and the checkpoint of a partial export', async () => {
    const six = chain(6);
    const holed = exportOf(six.slice(2));
    holed.splice(1, 1);
    expect(await verify(holed, { partial: true })).toMatchObject({ ok: false, line: 2, reason: 'deleted' });
    const tailCut = exportOf(six.slice(2, 5), checkpointOf(six[5]!));
    expect(await verify(tailCut, { partial: true })).toMatchObject({
      ok: false,
      line: 4,
      reason: 'truncated',
    });
    const forged = exportOf(
      six.slice(2),
      checkpointOf(six[5]!, toAuditKey(generateAuditKey().privateKeyPem)),
    );
    expect(await verify(forged, { partial: true })).toMatchObject({ reason: 'checkpoint_invalid' });
    expect(await verify(exportOf(six.slice(2), null), { partial: true })).toMatchObject({
      reason: 'truncated',
    });
  });

  it('refuses a checkpoint for another organization, even one signed by the pinned key', async () => {
    const lines = exportOf(events, checkpointOf(events[9]!, auditKey, 'globex'));
    expect(await verify(lines)).toMatchObject({ ok: false, line: 11, reason: 'wrong_organization' });
    expect(await verifyUnpinned(lines)).toMatchObject({ ok: false, line: 11, reason: 'wrong_organization' });
  });

  it('refuses events that name another organization, and an export verified as the wrong one', async () => {
    const globex = chain(4, (_, draft) => ({ ...draft, organization: 'globex' }));
    // Intact and signed, but globex's: not acme's log.
    expect(await verify(exportOf(globex, checkpointOf(globex[3]!, auditKey, 'acme')))).toMatchObject({
      ok: false,
      line: 1,
      reason: 'wrong_organization',
    });
    expect(await verify(exportOf(globex), { organization: 'globex' })).toMatchObject({ ok: true });
    const mixed = chain(4, (i, draft) => (i === 3 ? { ...draft, organization: 'globex' } : draft));
    expect(await verify(exportOf(mixed))).toMatchObject({ ok: false, line: 3, reason: 'wrong_organization' });
  });

  it('accepts another organization’s events only as a restored chain that backup_restored closes', async () => {
    const restored = (source: string, type = 'backup_restored') =>
      chain(4, (i, draft) =>
        i < 4
          ? { ...draft, organization: 'acme' }
          : { ...draft, organization: 'beta', type, data: { source: { organization: source } } },
      );
    const good = restored('acme');
    expect(await verify(exportOf(good), { organization: 'beta' })).toMatchObject({ ok: true, events: 4 });
    for (const bad of [restored('globex'), restored('acme', 'project_created')]) {
      expect(await verify(exportOf(bad), { organization: 'beta' })).toMatchObject({
        ok: false,
        line: 1,
        reason: 'wrong_organization',
      });
    }
    // Without the closing event the borrowed run stands alone.
    expect(await verify(exportOf(good.slice(0, 3)), { organization: 'beta' })).toMatchObject({
      ok: false,
      line: 1,
      reason: 'wrong_organization',
    });
  });
});
