/**
 * `latchkey activity verify` checks the whole claim of an export: from the chain's first event
 * (unless `--partial`), of the expected organization (`--organization`, default the configured
 * one), and with `--public-key` up to a checkpoint of that organization signed by the pinned key.
 * Exports are made here with core's own sealing and signing; the real CLI checks them.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ActivityEvent, generateAuditKey, signCheckpoint, toAuditKey } from '@latchkey/core';
import type { ActivityDraft, ChainHead } from '@latchkey/core/client';
import { sealEvent } from '@latchkey/core/store';
import { describe, expect, it } from 'vitest';
import { CLI } from './cli-path.js';

const work = mkdtempSync(join(tmpdir(), 'latchkey-verify-'));
const key = generateAuditKey();
const auditKey = toAuditKey(key.privateKeyPem);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the binary with `LATCHKEY_ORG` as the configured organization (empty for none). */
function latchkey(org: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        cwd: work,
        env: { ...process.env, LATCHKEY_CONFIG_DIR: join(work, 'config'), LATCHKEY_ORG: org },
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function chain(n: number, organization: (i: number) => string = () => 'acme'): ActivityEvent[] {
  const events: ActivityEvent[] = [];
  let head: ChainHead | null = null;
  for (let i = 1; i <= n; i++) {
    const draft: ActivityDraft = {
      id: `evt_${String(i).padStart(8, '0')}`,
      type: 'project_created',
      occurred_at: new Date(Date.UTC(2026, 10, 25, 0, 0, i)).toISOString(),
      organization: organization(i),
      actor: { type: 'user', id: 'admin' },
      data: { project: `p${i}` },
    };
    const event = sealEvent(draft, head);
    events.push(event);
    head = { seq: event.seq, hash: event.hash };
  }
  return events;
}

/** Writes an export of `events` closed by a checkpoint of its last event for `organization`. */
function exportFile(name: string, events: ActivityEvent[], organization = 'acme'): string {
  const last = events.at(-1)!;
  const checkpoint = signCheckpoint(
    { organization, seq: last.seq, hash: last.hash },
    auditKey,
    '2026-11-25T01:00:00.000Z',
  );
  const lines = [...events.map((e) => JSON.stringify(e)), JSON.stringify({ checkpoint })];
  writeFileSync(join(work, name), `${lines.join('\n')}\n`);
  return name;
}

/** `activity verify FILE` with the configured organization `org`, and what else is given. */
const verify = (org: string, file: string, ...flags: string[]) =>
  latchkey(org, 'activity', 'verify', file, ...flags);
const pinned = ['--public-key', key.publicKey];
// Each run starts the binary from source; runs of one test go in parallel.
const SLOW = 60_000;

describe('latchkey activity verify', () => {
  const six = chain(6);

  it(
    'passes a whole export of the configured organization, and says what it checked',
    async () => {
      const run = await verify('acme', exportFile('whole.ndjson', six), ...pinned);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('6 events of acme, chain intact from its first event up to seq 6.');
      expect(run.stdout).toContain('signed by the given key: valid');
    },
    SLOW,
  );

  it(
    'fails an export whose first 5 of 6 events were cut, unless told it is partial',
    async () => {
      const file = exportFile('cut.ndjson', six.slice(5));
      const [cut, partial] = await Promise.all([
        verify('acme', file, ...pinned),
        verify('acme', file, ...pinned, '--partial'),
      ]);
      expect(cut.code).toBe(5);
      expect(cut.stderr).toMatch(/cut\.ndjson:1: deleted: The export starts at seq 6/);
      expect(partial.code).toBe(0);
      expect(partial.stdout).toContain('1 events of acme, chain intact up to seq 6.');
    },
    SLOW,
  );

  it(
    'still checks links and the checkpoint of a partial export',
    async () => {
      const holed = six.slice(2);
      holed.splice(1, 1);
      const [hole, forged] = await Promise.all([
        verify('acme', exportFile('holed.ndjson', holed), ...pinned, '--partial'),
        verify(
          'acme',
          exportFile('tail.ndjson', six.slice(3)),
          '--public-key',
          generateAuditKey().publicKey,
          '--partial',
        ),
      ]);
      expect(hole.code).toBe(5);
      expect(hole.stderr).toMatch(/holed\.ndjson:2: deleted/);
      expect(forged.code).toBe(5);
      expect(forged.stderr).toMatch(/tail\.ndjson:4: checkpoint_invalid/);
    },
    SLOW,
  );

  it(
    'fails a checkpoint for another organization, and events naming another organization',
    async () => {
      const [checkpoint, events, named] = await Promise.all([
        verify('acme', exportFile('other-checkpoint.ndjson', six, 'globex'), ...pinned),
        verify(
          'acme',
          exportFile(
            'globex.ndjson',
            chain(3, () => 'globex'),
            'acme',
          ),
          ...pinned,
        ),
        // --organization beats the configured organization, and is what the lines must name.
        verify(
          'globex',
          exportFile(
            'mixed.ndjson',
            chain(3, (i) => (i === 2 ? 'globex' : 'acme')),
          ),
          '--organization',
          'acme',
        ),
      ]);
      expect(checkpoint.code).toBe(5);
      expect(checkpoint.stderr).toMatch(/other-checkpoint\.ndjson:7: wrong_organization/);
      expect(events.code).toBe(5);
      expect(events.stderr).toMatch(/globex\.ndjson:1: wrong_organization/);
      expect(named.code).toBe(5);
      expect(named.stderr).toMatch(/mixed\.ndjson:2: wrong_organization/);
    },
    SLOW,
  );

  it(
    'needs an organization: --organization or a configured one (usage error otherwise)',
    async () => {
      const file = exportFile('nobody.ndjson', six);
      const [none, json] = await Promise.all([
        verify('', file),
        verify('', file, '--organization', 'acme', '--json'),
      ]);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('--organization');
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({
        ok: true,
        organization: 'acme',
        partial: false,
        events: 6,
      });
    },
    SLOW,
  );
});
