/**
 * `latchkey activity witness`: a witness of the organization's transparency log. It keeps the last
 * tree head it verified (`witness-state.ts`), fetches the current checkpoint note, opens it with the
 * pinned verifier key, and checks with an RFC 6962 consistency proof that the new tree extends the
 * old one; a log that shrank, changed its root at the same size, or whose proof fails is a fork:
 * exit 5 naming both heads, and the old head stays recorded. With `--cosign KEYFILE` it then signs
 * the verified head (C2SP tlog-cosignature/v1) and posts it. `witness-key` prints what to register.
 */
import {
  type Checkpoint,
  cosignCheckpoint,
  openCheckpoint,
  verifyCheckpoint,
  verifyConsistency,
} from '@latchkey/core/client';
import type { Command } from 'commander';
import { type CommandContext, createContext, type GlobalOptions, seg } from '../context.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { HttpClient } from '../http-client.js';
import { fromVerifierKey, hashBytes } from '../log-key.js';
import { loadWitnessKey } from '../witness-key.js';
import { recordWitnessedHead, type WitnessedHead, witnessedHead } from '../witness-state.js';

interface WitnessOptions {
  cosign?: string;
  name?: string;
  verifierKey?: string;
  trustNewKey?: boolean;
}

/** The checkpoint JSON with its note; the audit key signs its `verifier_key`. */
type CheckpointView = Checkpoint & {
  tree_size: number;
  root_hash: string;
  verifier_key: string;
  note: string;
};

/** Registers `activity witness` and `activity witness-key`. */
export function registerActivityWitness(activity: Command): void {
  activity
    .command('witness')
    .description(
      'Check that the log’s new checkpoint extends the last one this machine saw (exit 5 naming both heads if it was forked or rewound), record it, and with --cosign sign and post it',
    )
    .option('--cosign <keyfile>', 'an Ed25519 private key (PKCS#8 PEM): cosign the verified head and post it')
    .option('--name <name>', 'the witness’s key name, as registered (default derived from the key)')
    .option(
      '--verifier-key <vkey>',
      'the log’s C2SP verifier key, pinned out of band (default: trust the first one seen)',
    )
    .option('--trust-new-key', 'accept a log key other than the pinned one (the audit key was rotated)')
    .action(witness);

  activity
    .command('witness-key')
    .description('Print the name, public key and verifier key of a witness key, to register it')
    .argument(
      '<keyfile>',
      'an Ed25519 private key (PKCS#8 PEM), e.g. from `openssl genpkey -algorithm ed25519`',
    )
    .option('--name <name>', 'the witness’s key name (default derived from the key)')
    .action(async (file: string, options: { name?: string }, command: Command) => {
      const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
      const key = await loadWitnessKey(file, options.name);
      const view = {
        name: key.name,
        public_key: Buffer.from(key.publicKey).toString('base64'),
        verifier_key: key.verifierKey,
      };
      ctx.out.result(view, () => {
        ctx.out.line(`name          ${view.name}`);
        ctx.out.line(`public key    ${view.public_key}`);
        ctx.out.line(`verifier key  ${view.verifier_key}`);
        ctx.out.line('An owner registers it: POST …/activity/witnesses {"name", "public_key"}.');
      });
    });
}

const describe = (head: { tree_size: number; root_hash: string }) =>
  `size ${head.tree_size}, root ${head.root_hash}`;

async function witness(options: WitnessOptions, command: Command): Promise<void> {
  const ctx = createContext(command.optsWithGlobals<GlobalOptions>());
  const { url, client, org } = ctx.connect();
  const signer = options.cosign ? await loadWitnessKey(options.cosign, options.name) : null;
  const base = `/organizations/${seg(org)}/activity`;
  const last = witnessedHead(ctx.config.dir, url.href, org);
  const view = await client.json<CheckpointView>('GET', `${base}/checkpoint`);
  // With --json, a refusal is also a result on stdout, with both heads, for the script that alerts.
  const fork = (message: string, current?: { tree_size: number; root_hash: string }): never => {
    const previous = last ? { tree_size: last.tree_size, root_hash: last.root_hash } : null;
    ctx.out.result(
      { organization: org, consistent: false, message, previous, current: current ?? null },
      () => {},
    );
    throw new CliError(`${org}: ${message}`, EXIT.verification);
  };
  // The key: pinned out of band, else pinned on first use; another key is refused unless trusted.
  const pinned = last?.verifier_key ?? options.verifierKey ?? view.verifier_key;
  if (options.verifierKey && options.verifierKey !== pinned && !options.trustNewKey)
    fork(`--verifier-key is not the pinned ${pinned} (give --trust-new-key to pin it).`);
  let key = options.verifierKey ?? pinned;
  const moved = view.verifier_key !== key && vouchedFor(view, key, org);
  if (moved) key = view.verifier_key;
  if (view.verifier_key !== key) {
    if (!options.trustNewKey)
      fork(
        `the log is signed by ${view.verifier_key}, not the pinned ${key} (give --trust-new-key if the audit key was rotated).`,
      );
    key = view.verifier_key;
  }
  const opened = await openCheckpoint({ note: view.note, key });
  if (!opened.ok) return fork(`the checkpoint note does not open with ${key}: ${opened.message}`);
  if (!opened.origin.endsWith(`/${org}`)) fork(`the checkpoint is of ${opened.origin}, not of ${org}.`);
  const head = {
    tree_size: opened.treeSize,
    root_hash: Buffer.from(opened.rootHash).toString('base64'),
  };
  if (last) await checkExtends(client, base, last, head, (message) => fork(message, head));
  const record: WitnessedHead = {
    verifier_key: key,
    ...head,
    note: view.note,
    seen_at: new Date().toISOString(),
  };
  recordWitnessedHead(ctx.config.dir, url.href, org, record);
  const cosigned = signer ? await cosign(client, base, view.note, signer) : null;
  if (moved)
    ctx.out.warn(
      `${org}: the log's notes are now signed by a key of its own, ${key}, which the pinned audit key signed into the checkpoint; pinned it.`,
    );
  report(ctx, org, last, record, cosigned);
}

/**
 * Whether the pinned key is the organization's audit key itself (notes made before each log had a
 * note key of its own were signed with it) and it signed the checkpoint that names the new
 * `verifier_key`: then the move needs no `--trust-new-key`, the pinned key vouches for it.
 */
function vouchedFor(view: CheckpointView, pinned: string, org: string): boolean {
  try {
    return view.organization === org && verifyCheckpoint(view, fromVerifierKey(pinned).publicKey);
  } catch {
    return false;
  }
}

/** Exits 5 unless the tree of `head` extends the tree of `last`. */
async function checkExtends(
  client: HttpClient,
  base: string,
  last: WitnessedHead,
  head: { tree_size: number; root_hash: string },
  fork: (message: string) => never,
): Promise<void> {
  const both = `last seen ${describe(last)}; now ${describe(head)}`;
  if (head.tree_size < last.tree_size) fork(`the log was rewound: ${both}.`);
  if (head.tree_size === last.tree_size) {
    if (head.root_hash !== last.root_hash) fork(`the log was forked: ${both}.`);
    return;
  }
  if (last.tree_size === 0) return;
  const proof = await client.json<{ hashes: string[] }>(
    'GET',
    `${base}/proofs/consistency?from=${last.tree_size}&to=${head.tree_size}`,
  );
  const consistent = verifyConsistency({
    from: last.tree_size,
    to: head.tree_size,
    hashes: proof.hashes.map((h) => hashBytes(h, 'A proof hash')),
    fromRoot: hashBytes(last.root_hash, 'The recorded root'),
    toRoot: hashBytes(head.root_hash, 'The new root'),
  });
  if (!consistent) fork(`the log was forked (the consistency proof fails): ${both}.`);
}

async function cosign(
  client: HttpClient,
  base: string,
  note: string,
  signer: Awaited<ReturnType<typeof loadWitnessKey>>,
): Promise<{ name: string; kept: boolean }> {
  const line = await cosignCheckpoint({ note, ...signer });
  const body = note.slice(0, note.indexOf('\n\n') + 1);
  const kept = await client.json<{ cosignatures: { witness: string }[] }>(
    'POST',
    `${base}/checkpoint/cosignatures`,
    { cosignature: line, checkpoint: body },
  );
  // Only whether our own line was kept: the server's word on other witnesses proves nothing.
  return { name: signer.name, kept: kept.cosignatures.some((c) => c.witness === signer.name) };
}

function report(
  ctx: CommandContext,
  org: string,
  last: WitnessedHead | undefined,
  head: WitnessedHead,
  cosigned: { name: string; kept: boolean } | null,
): void {
  const result = {
    organization: org,
    previous: last ? { tree_size: last.tree_size, root_hash: last.root_hash } : null,
    tree_size: head.tree_size,
    root_hash: head.root_hash,
    verifier_key: head.verifier_key,
    consistent: true,
    cosigned_as: cosigned?.name ?? null,
    cosigned_by: cosigned?.kept ? [cosigned.name] : [],
  };
  ctx.out.result(result, () => {
    if (!last)
      ctx.out.line(
        `${org}: first checkpoint seen, ${describe(head)}; recorded with its key (trusted on first use).`,
      );
    else if (last.tree_size === head.tree_size) ctx.out.line(`${org}: unchanged, ${describe(head)}.`);
    else ctx.out.line(`${org}: ${describe(head)} extends ${describe(last)}: consistent.`);
    if (cosigned)
      ctx.out.line(
        `Cosigned as ${cosigned.name} and posted; ${cosigned.kept ? 'the server kept it' : 'the server did not say it kept it'}.`,
      );
  });
}
