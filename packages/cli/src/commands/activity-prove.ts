/**
 * `latchkey activity prove SEQ`: fetches one event with its RFC 6962 inclusion proof and the signed
 * checkpoint it is proved against, then checks, without trusting the server: the checkpoint's
 * signature with the pinned audit key, the proof against the signed root, the event's own chain
 * hash, and the C2SP note of the same tree head. Exit 5 when any check fails. It names as
 * cosigners only the witnesses whose cosignatures verify with keys pinned by `--witness-key`; the
 * other cosignature lines are counted, never named (the server could invent them). With
 * `--out FILE`, the checked event, proof and note are written as a C2SP tlog-proof that an outside
 * tool checks.
 */
import {
  type ActivityEvent,
  type Checkpoint,
  eventLeafHash,
  expectedEventHash,
  type OpenedCheckpoint,
  openCheckpoint,
  verifyCheckpoint,
  verifyInclusion,
} from '@latchkey/core/client';
import type { Command } from 'commander';
import { createContext, type GlobalOptions, seg } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import { fromPublicKeyOption, fromVerifierKey, hashBytes, type LogKey } from '../log-key.js';
import { collect, pinnedWitnesses } from '../pinned-witnesses.js';
import { writeProofFile } from '../proof-file.js';
import { witnessedHead } from '../witness-state.js';

interface ProveOptions {
  publicKey?: string;
  out?: string;
  witnessKey?: string[];
}

interface EventProof {
  event: ActivityEvent;
  proof: { leaf_index: number; tree_size: number; hashes: string[] };
  checkpoint: (Checkpoint & { tree_size?: number; root_hash?: string }) | null;
}

/** The checkpoint JSON of the proved head, with its note; the audit key signs its `verifier_key`. */
type CheckpointNote = Checkpoint & { note: string; verifier_key: string };

/** Registers `activity prove`. */
export function registerActivityProve(activity: Command): void {
  activity
    .command('prove')
    .description(
      'Fetch one event with its Merkle inclusion proof and check it against the signed tree head (exit 5 if it does not verify)',
    )
    .argument('<seq>', 'the event’s sequence number')
    .option(
      '--public-key <key>',
      "the organization's audit public key (raw base64url or SPKI PEM), pinned out of band; default the key `activity witness` pinned",
    )
    .option(
      '--witness-key <vkey>',
      'a witness’s verifier key (<name>+<hash>+<base64(0x04 || key)>), pinned out of band: only cosignatures these keys verify are named (repeatable)',
      collect,
    )
    .option(
      '--out <file>',
      'once everything verifies, write the event, its proof and the checkpoint note as a C2SP tlog-proof (c2sp.org/tlog-proof@v1) to this file; needs a key',
    )
    .action(prove);
}

/** The key to check with: `--public-key`, else the pinned one; `--out` needs one. */
function logKey(options: ProveOptions, pinned: { verifier_key: string } | undefined): LogKey | null {
  const key = options.publicKey
    ? fromPublicKeyOption(options.publicKey)
    : pinned
      ? fromVerifierKey(pinned.verifier_key)
      : null;
  // A proof file holds only what was checked: without a key the note's signature was not.
  if (options.out !== undefined && !key) {
    throw new CliError(
      '--out writes only a verified proof: give --public-key (or run `activity witness` first).',
      EXIT.usage,
    );
  }
  return key;
}

async function prove(seqText: string, options: ProveOptions, command: Command): Promise<void> {
  if (!/^[1-9][0-9]{0,15}$/.test(seqText)) throw new CliError('SEQ must be a positive integer.', EXIT.usage);
  const seq = Number(seqText);
  const witnesses = pinnedWitnesses(options.witnessKey ?? []);
  const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
  const { url, client, org } = ctx.connect();
  const key = logKey(options, witnessedHead(ctx.config.dir, url.href, org));
  if (!key && witnesses.length > 0)
    throw new CliError(
      '--witness-key needs the log key: give --public-key, or run `activity witness` first.',
      EXIT.usage,
    );
  const base = `/organizations/${seg(org)}/activity`;
  const { event, proof, checkpoint } = await client.json<EventProof>('GET', `${base}/events/${seq}`);
  const refuse = (reason: string): never => {
    throw new CliError(`Event ${seq} of ${org} does not verify: ${reason}`, EXIT.verification);
  };
  const signed =
    checkpoint ?? refuse('the server signs no checkpoints (it has no audit key), so no root can be trusted');
  if (signed.tree_size === undefined || signed.root_hash === undefined) {
    throw new CliError('The log’s Merkle tree is still being built; try again shortly.');
  }
  if (event.seq !== seq || proof.leaf_index !== seq - 1)
    refuse(`the server answered with event ${event.seq}`);
  if (event.organization !== org || signed.organization !== org)
    refuse(`the event or checkpoint is of ${event.organization}/${signed.organization}`);
  if (proof.tree_size !== signed.tree_size)
    refuse(`the proof is for ${proof.tree_size} events, the checkpoint for ${signed.tree_size}`);
  // A key pinned by `activity witness` is the log's note key: the note below vouches for the root.
  if (key?.source === 'option' && !verifyCheckpoint(signed, key.publicKey))
    refuse('the checkpoint is not signed by the pinned audit key');
  if ((await expectedEventHash(event)) !== event.hash) refuse('the event’s content does not match its hash');
  const rootHash = hashBytes(signed.root_hash, 'The signed root');
  const included = verifyInclusion({
    leafHash: eventLeafHash(event),
    leafIndex: proof.leaf_index,
    treeSize: proof.tree_size,
    hashes: proof.hashes.map((h) => hashBytes(h, 'A proof hash')),
    rootHash,
  });
  if (!included) refuse(`the inclusion proof does not lead to the signed root ${signed.root_hash}`);
  // The same head as a C2SP note: what witnesses cosign, opened with the same pinned key.
  const view = await client.json<CheckpointNote>('GET', `${base}/checkpoint?tree_size=${proof.tree_size}`);
  const witnessed = key ? await openNote(view, key, org, witnesses, refuse) : null;
  if (witnessed && (witnessed.treeSize !== proof.tree_size || !sameBytes(witnessed.rootHash, rootHash)))
    refuse('the checkpoint note names another tree head');
  const cosignedBy = witnessed?.cosignedBy.map((c) => c.name) ?? [];
  const unverified = witnessed?.unverified ?? 0;
  if (witnessed && options.out !== undefined)
    writeProofFile(options.out, { event, hashes: proof.hashes, note: view.note });
  const result = {
    included: true,
    organization: org,
    seq,
    type: event.type,
    occurred_at: event.occurred_at,
    tree_size: proof.tree_size,
    root_hash: signed.root_hash,
    signature_checked: key !== null,
    key_source: key?.source ?? null,
    cosigned_by: cosignedBy,
    cosignatures_not_verified: unverified,
    proof_file: options.out ?? null,
  };
  ctx.out.result(result, () => {
    ctx.out.line(`Event ${seq} (${event.type}, ${event.occurred_at}) of ${org}: included.`);
    ctx.out.line(`Tree size ${proof.tree_size}, root ${signed.root_hash}.`);
    if (!key)
      ctx.out.line('Checkpoint signature not checked: give --public-key (or run `activity witness` first).');
    else
      ctx.out.line(
        `Signed by the ${key.source === 'option' ? 'given audit key' : 'pinned log key'}: valid${cosigned(cosignedBy, unverified)}.`,
      );
    if (options.out !== undefined) ctx.out.line(`Proof written to ${options.out} (c2sp.org/tlog-proof@v1).`);
  });
}

/**
 * Opens the note of the proved head with the log key and the pinned witness keys: exit 5 when it
 * does not open or a pinned witness's cosignature fails, exit 2 when a given key is refused.
 */
async function openNote(
  view: CheckpointNote,
  key: LogKey,
  org: string,
  witnesses: string[],
  refuse: (reason: string) => never,
): Promise<OpenedCheckpoint & { ok: true }> {
  const name = key.verifierKey?.split('+')[0] ?? view.verifier_key.split('+')[0]!;
  if (!name.endsWith(`/${org}`)) refuse(`the note's origin ${name} is not of ${org}`);
  // With the audit key: the organization's note key is the one the audit key signed into the
  // checkpoint JSON (a server from before note keys signed its notes with the audit key itself).
  const noteKey =
    key.verifierKey ??
    (view.organization === org && verifyCheckpoint(view, key.publicKey)
      ? view.verifier_key
      : { name, publicKey: key.raw });
  const opened = await openCheckpoint({ note: view.note, key: noteKey, witnesses });
  if (!opened.ok && opened.fault === 'bad_key') throw new CliError(opened.message, EXIT.usage);
  if (!opened.ok && opened.fault === 'unsigned' && key.source === 'witness')
    refuse(`the checkpoint note is not signed by the pinned log key (run \`activity witness\`)`);
  if (!opened.ok) return refuse(`the checkpoint note: ${opened.message}`);
  return opened;
}

/** What the printed line says of the cosignatures: the verified ones by name, the rest by number. */
function cosigned(names: string[], unverified: number): string {
  const named = names.length ? `; cosigned by ${names.join(', ')} (pinned witness keys)` : '';
  const counted = unverified
    ? `; ${unverified} cosignature${unverified === 1 ? '' : 's'} not verified (no pinned key)`
    : '';
  return named + counted;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
