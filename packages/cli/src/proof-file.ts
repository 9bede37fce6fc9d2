/**
 * The file `latchkey activity prove SEQ --out FILE` writes: a C2SP transparency log proof
 * (https://c2sp.org/tlog-proof, `c2sp.org/tlog-proof@v1`) of the event, whose extra data is the
 * event's leaf data (its RFC 8785 JSON), with the inclusion proof and the checkpoint note that was
 * just verified, so an outside tool checks the event offline with the log's key alone. Written to
 * a temporary file beside it and renamed, so a failure leaves no half-written proof.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { type ActivityEvent, eventLeafData, formatTlogProof } from '@latchkey/core/client';
import { CliError } from './exit-codes.js';

/** What goes into the proof: the event, its audit path (base64) and the verified note. */
export interface ProofFileInput {
  event: ActivityEvent;
  hashes: readonly string[];
  note: string;
}

/** Writes the event's tlog-proof to `path`, whole or not at all. */
export function writeProofFile(path: string, input: ProofFileInput): void {
  const text = formatTlogProof({
    index: input.event.seq - 1,
    hashes: input.hashes,
    checkpoint: input.note,
    extra: eventLeafData(input.event),
  });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { flag: 'wx' });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new CliError(`Cannot write the proof to ${path}: ${(error as Error).message}`);
  }
}
