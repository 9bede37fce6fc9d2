/**
 * The outside check: Go's golang.org/x/mod/sumdb/tlog (Debian: golang-go and
 * golang-golang-x-mod-dev, in GOPATH mode, offline) accepts our roots, inclusion and consistency
 * proofs of events' leaves (tlog.CheckRecord / tlog.CheckTree), rebuilds the same proofs from our
 * stored nodes (tlog.ProveRecord / tlog.ProveTree / tlog.TreeHash), and rejects a tampered proof.
 * Without Go the test is skipped, except in CI, where it fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { toBase64 } from '../../encoding/base64.js';
import type { ActivityEvent } from '../../model/model.js';
import { sealEvent } from '../chain.js';
import { eventLeafData, leafHash } from './hashes.js';
import { consistencyProof, inclusionProof, type NodeReader, rootAt } from './proofs.js';
import { appendLeaves, EMPTY_TREE } from './tree-state.js';

// The Go checker is test code: it lives with core's test fixtures, packages/core/test/.
const checker = fileURLToPath(new URL('../../../test/go-tlog/main.go', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'latchkey-go-tlog-'));
// GOPATH mode finds x/mod where Debian's golang-golang-x-mod-dev puts it, with no network.
const env = {
  ...process.env,
  GO111MODULE: 'off',
  GOPATH: process.env['LATCHKEY_GOPATH'] ?? '/usr/share/gocode',
  GOCACHE: join(work, 'cache'),
  GOFLAGS: '',
};
const goVersion = spawnSync('go', ['version'], { env, encoding: 'utf8' });
const haveGo = goVersion.status === 0;
if (!haveGo && process.env['CI'] === 'true') {
  throw new Error(
    'Go is required in CI for the tlog check (apt-get install golang-go golang-golang-x-mod-dev)',
  );
}

afterAll(() => rmSync(work, { recursive: true, force: true }));

function events(n: number): ActivityEvent[] {
  const out: ActivityEvent[] = [];
  for (let i = 0; i < n; i++) {
    const last = out.at(-1);
    const draft = {
      id: `evt_${i}`,
      type: 'push_applied',
      occurred_at: '2026-11-25T00:00:00.000Z',
      organization: 'acme',
      actor: { type: 'user' as const, id: 'alice' },
      data: { i, note: 'ü\u2028' },
    };
    out.push(sealEvent(draft, last ? { seq: last.seq, hash: last.hash } : null));
  }
  return out;
}

/** Our tree of `n` events: its stored nodes, and proofs of a spread of sizes, as the Go program reads them. */
async function ourTree(n: number) {
  const log = events(n);
  const data = log.map(eventLeafData);
  const { nodes } = appendLeaves(EMPTY_TREE, data.map(leafHash));
  const byAddress = new Map(nodes.map((node) => [`${node.level}/${node.index}`, node.hash]));
  const read: NodeReader = async (addresses) => addresses.map((a) => byAddress.get(`${a.level}/${a.index}`)!);
  const sizes = [1, 2, 3, 7, 8, 9, 64, 100, 255, 256, 257, n];
  const inclusion = [];
  const consistency = [];
  for (const size of sizes) {
    const root = toBase64(await rootAt(size, read));
    for (const index of new Set([0, Math.floor(size / 2), size - 1])) {
      const hashes = (await inclusionProof(index, size, read)).map(toBase64);
      inclusion.push({ index, tree_size: size, data: toBase64(data[index]!), root, hashes });
    }
    for (const from of new Set([1, Math.ceil(size / 3), size])) {
      const hashes = (await consistencyProof(from, size, read)).map(toBase64);
      consistency.push({
        from,
        to: size,
        from_root: toBase64(await rootAt(from, read)),
        to_root: root,
        hashes,
      });
    }
  }
  const stored = nodes.map((node) => ({ level: node.level, index: node.index, hash: toBase64(node.hash) }));
  return { nodes: stored, inclusion, consistency };
}

function runGo(input: unknown) {
  const binary = join(work, 'tlog-check');
  const build = spawnSync('go', ['build', '-o', binary, checker], {
    env,
    encoding: 'utf8',
  });
  expect(build.stderr).toBe('');
  return spawnSync(binary, [], { input: JSON.stringify(input), encoding: 'utf8' });
}

describe('the Merkle tree checked by Go’s golang.org/x/mod/sumdb/tlog', () => {
  // Skipped only off CI, where Go may be absent (in CI a missing Go has already failed this file).
  it.skipIf(!haveGo)(
    'accepts our proofs and roots, rebuilds the same proofs, and rejects a tampered one',
    async () => {
      const input = await ourTree(300);
      const good = runGo(input);
      expect(good.stdout).toContain(`checked ${input.inclusion.length} inclusion`);
      expect(good.stdout).toContain(' 0 faults');
      expect(good.status).toBe(0);

      const flip = (b64: string) => {
        const bytes = Buffer.from(b64, 'base64');
        bytes[5]! ^= 0x10;
        return bytes.toString('base64');
      };
      const tampered = structuredClone(input);
      const proof = tampered.inclusion.find((p) => p.hashes.length > 2)!;
      proof.hashes[1] = flip(proof.hashes[1]!);
      const tree = tampered.consistency.find((p) => p.hashes.length > 0)!;
      tree.to_root = flip(tree.to_root);
      const bad = runGo(tampered);
      expect(bad.status).toBe(1);
      expect(bad.stdout).toContain(`CheckRecord ${proof.index} in ${proof.tree_size}`);
      expect(bad.stdout).toContain(`CheckTree ${tree.from} -> ${tree.to}`);
    },
  );
});
