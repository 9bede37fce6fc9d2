/**
 * "Verify" on the Activity page, in the browser with the CLI's own checks from
 * `@latchkey/core/client` (WebCrypto SHA-256 over the RFC 8785 form, Ed25519 for the checkpoint).
 *
 * The history on screen is newest first and may be filtered, so it cannot prove the chain on its
 * own: for owners and admins Verify streams the organization's unfiltered NDJSON export and walks
 * it from the genesis with `verifyActivityExport`, requiring its closing checkpoint to be signed by
 * the key the checkpoint route names (the page shows that key, to compare out of band). Members
 * without organization-wide read can check only the events they loaded: each event's hash against
 * its content, and the link between events whose seqs follow each other.
 */
import { expectedEventHash, verifyActivityExport } from '@latchkey/core/client';
import { API_BASE, ApiError, api, authHeaders } from './api.js';
import type { ActivityEvent, SignedCheckpoint } from './types.js';

/** What Verify found. */
export type VerifyResult =
  | { ok: true; scope: 'chain'; seq: number; events: number; keyId: string; publicKey: string }
  | { ok: true; scope: 'loaded'; events: number; first: number; last: number }
  | { ok: false; seq: number | null; event: ActivityEvent | null; reason: string; message: string };

/** The lines of a `fetch` body, as chunks `verifyActivityExport` reads. */
async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Walks the organization's whole chain (owners and admins) against its signed checkpoint. */
export async function verifyOrganizationChain(
  org: string,
  organization: string,
  loaded: readonly ActivityEvent[],
): Promise<VerifyResult> {
  const checkpoint = await api<SignedCheckpoint>('GET', `${org}/activity/checkpoint`);
  const response = await fetch(`${API_BASE}${org}/activity/export?format=ndjson`, {
    headers: authHeaders('application/x-ndjson'),
    credentials: 'same-origin',
    cache: 'no-store',
  });
  if (!response.ok || !response.body) {
    throw new ApiError(response.status, 'http_error', `The export answered ${response.status}.`);
  }
  const verdict = await verifyActivityExport(chunksOf(response.body), {
    organization,
    publicKey: checkpoint.public_key,
  });
  if (verdict.ok) {
    return {
      ok: true,
      scope: 'chain',
      seq: verdict.head.seq,
      events: verdict.events,
      keyId: checkpoint.key_id,
      publicKey: checkpoint.public_key,
    };
  }
  // Every line before the failing one held the next seq from 1, so an edited (or foreign, or
  // malformed) line N is event seq N; a deletion's or reordering's message names its seqs itself.
  const onEvent = ['edited', 'malformed', 'wrong_organization'].includes(verdict.reason);
  const seq = onEvent ? verdict.line : null;
  return {
    ok: false,
    seq,
    event: loaded.find((e) => e.seq === seq) ?? null,
    reason: verdict.reason,
    message: verdict.message,
  };
}

/** Checks the loaded events only: each one's hash, and the links between consecutive seqs. */
export async function verifyLoaded(events: readonly ActivityEvent[]): Promise<VerifyResult> {
  const bySeq = [...events].sort((a, b) => a.seq - b.seq);
  for (let i = 0; i < bySeq.length; i++) {
    const event = bySeq[i]!;
    if ((await expectedEventHash(event)) !== event.hash) {
      const message = `The content of event seq ${event.seq} does not match its hash.`;
      return { ok: false, seq: event.seq, event, reason: 'edited', message };
    }
    const before = bySeq[i - 1];
    if (before && before.seq === event.seq - 1 && event.prev_hash !== before.hash) {
      const message = `Event seq ${before.seq} is not the event seq ${event.seq} was chained to.`;
      return { ok: false, seq: before.seq, event: before, reason: 'edited', message };
    }
  }
  return {
    ok: true,
    scope: 'loaded',
    events: bySeq.length,
    first: bySeq[0]?.seq ?? 0,
    last: bySeq.at(-1)?.seq ?? 0,
  };
}
