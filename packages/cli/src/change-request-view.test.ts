import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type ChangeRequest, printRequest, printRequestTable, requestId } from './change-request-view.js';
import { checkProposeOptions } from './commands/propose.js';
import { createOutput } from './output.js';

const capture = () => {
  const stdout = new PassThrough();
  const out = createOutput(false, stdout as unknown as typeof process.stdout, process.stderr);
  return { out, text: () => String(stdout.read() ?? '') };
};

const REQUEST: ChangeRequest = {
  id: 'chr_0123456789abcdef',
  status: 'approved',
  title: 'Rotate\x1b[31m the keys',
  description: 'New host\nand key',
  project: 'web',
  environment: 'prod',
  created_by: 'dev',
  device_id: 'dev_1',
  created_at: '2026-12-01T10:00:00.000Z',
  expires_at: '2026-12-04T10:00:00.000Z',
  required_approvals: 2,
  changes: [
    { key: 'DB_URL', action: 'set', if_version: 3, value: 'postgres://x' },
    { key: 'OLD', action: 'delete', if_version: 1 },
  ],
  approvals: [{ user: 'carol', approved_at: '2026-12-01T11:00:00.000Z', device_id: 'dev_2', comment: 'ok' }],
};

describe('printing change requests', () => {
  it('lists requests with their approvals so far, each cell made safe for a terminal', () => {
    const { out, text } = capture();
    printRequestTable(out, [REQUEST]);
    const lines = text().split('\n');
    expect(lines[0]).toMatch(/^id\s+status\s+title\s+by\s+keys\s+approvals\s+created\s+expires$/);
    expect(lines[2]).toMatch(/^chr_0123456789abcdef\s+approved\s+Rotate the keys\s+dev\s+2\s+1\/2\s+2026/);
  });

  it('marks a key whose version moved since the request, and shows values only when read', () => {
    const { out, text } = capture();
    printRequest(
      out,
      REQUEST,
      new Map([
        ['DB_URL', 4],
        ['OLD', 1],
      ]),
    );
    const printed = text();
    expect(printed).toMatch(/key\s+change\s+based on\s+now\s+value/);
    expect(printed).toMatch(/DB_URL\s+set\s+3\s+4\s+MOVED\s+postgres:\/\/x/);
    expect(printed).toMatch(/OLD\s+delete\s+1\s+1\s+\(deleted\)/);
    expect(printed).toContain('applying it will be refused');
    expect(printed).toContain('Approvals: 1 of 2.');
    expect(printed).toContain('carol at 2026-12-01T11:00:00.000Z (signed, dev_2): ok');
    expect(printed).toContain('New host and key');

    const bare = capture();
    const withoutValues = { ...REQUEST, changes: REQUEST.changes.map(({ value: _v, ...c }) => c) };
    printRequest(bare.out, withoutValues);
    const plain = bare.text();
    expect(plain).not.toMatch(/value|MOVED|postgres/);
    expect(plain).toMatch(/DB_URL\s+set\s+3\n/);
  });

  it('refuses an id that is no change request’s, before anything is sent', () => {
    expect(requestId('chr_abc')).toBe('chr_abc');
    for (const bad of ['abc', 'chr_', 'chr_a/../b', 'dev_123'])
      expect(() => requestId(bad)).toThrow(/not a change request id/);
  });

  it('checks --propose, --description and --bypass-reason against each other and their bounds', () => {
    expect(() => checkProposeOptions({ propose: 'Rotate' })).not.toThrow();
    expect(() => checkProposeOptions({ propose: 'Rotate', rebase: true })).toThrow(/excludes --rebase/);
    expect(() => checkProposeOptions({ propose: 'x', bypassReason: 'y' })).toThrow(/--bypass-reason/);
    expect(() => checkProposeOptions({ propose: ' ' })).toThrow(/1 to 200/);
    expect(() => checkProposeOptions({ propose: 'x'.repeat(201) })).toThrow(/1 to 200/);
    expect(() => checkProposeOptions({ description: 'why' })).toThrow(/goes with --propose/);
    expect(() => checkProposeOptions({ propose: 'x', description: 'y'.repeat(4001) })).toThrow(/4,000/);
    expect(() => checkProposeOptions({ bypassReason: '' })).toThrow(/1 to 500/);
    expect(() => checkProposeOptions({ bypassReason: 'incident 42' })).not.toThrow();
  });
});
