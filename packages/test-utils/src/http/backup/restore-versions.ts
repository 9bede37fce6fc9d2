/**
 * Item: a restore reconciles each key's versions with its head, on every store. Versions past the
 * head, of a key with no head, going backwards or stopping short of the head, a head with no room
 * for the next push, and versions naming devices, events or actors in formats the server does not
 * make are 422 `backup_invalid` naming the line; and over generated backups, a restore either
 * refuses so, or every later push and read of the restored keys answers without a 5xx, the next
 * push writing the head's version plus one on top of a history that has each version once.
 */
import { generateDeviceKeyPair, signPush } from '@latchkey/core';
import fc from 'fast-check';
import { expect } from 'vitest';
import { describe, it } from '../../keyed/keyed.js';
import type { ConformanceContext, Member } from '../harness/context.js';
import { expectError } from '../harness/expect-error.js';
import type { TargetResponse } from '../harness/http-target.js';
import { type Line, linesOf, restoreHelpers } from './restore-helpers.js';
import { INT32_MAX, linesOfKeys, type ModelKey, modelKeys, wellFormed } from './restore-version-model.js';

const SOURCE = 'versions-src';
const TARGET = 'versions-into';

/** Registers the tests of restored key histories. */
export function describeRestoreVersionTests(ctx: ConformanceContext): void {
  const kit = restoreVersionKit(ctx);
  describe('restore key histories', () => {
    versionRuleTests(kit);
    versionFormatTests(kit);
  });
}

type RestoreVersionKit = ReturnType<typeof restoreVersionKit>;

/** What the key-history tests share: the restore helpers, one base backup made once, and a member who pushes. */
function restoreVersionKit(ctx: ConformanceContext) {
  const { backupOf, newOrganization, restoreLines, refused } = restoreHelpers(ctx);

  /** A backup of an organization with one environment (web/prod) and no keys yet; a target for it. */
  let fixture: Promise<{ base: Line[]; token: string }> | undefined;
  const setUp = () => {
    fixture ??= (async () => {
      const source = await newOrganization(SOURCE);
      const at = `/api/v2/organizations/${SOURCE}`;
      expect((await ctx.send('POST', `${at}/projects`, { slug: 'web' }, source)).status).toBe(201);
      const env = await ctx.send('POST', `${at}/projects/web/environments`, { slug: 'prod' }, source);
      expect(env.status).toBe(201);
      const base = linesOf(await backupOf(SOURCE, source));
      return { base, token: await newOrganization(TARGET) };
    })();
    return fixture;
  };
  /** The base backup with `keys` as web/prod's keys, and where each of their lines is. */
  const withKeys = (base: readonly Line[], keys: Line[]) => {
    const at = base.findIndex((l) => l.kind === 'environment') + 1;
    return { lines: [...base.slice(0, at), ...keys, ...base.slice(at)], first: at + 1 };
  };
  const send = (method: string, path: string, body: unknown, token: string) =>
    ctx.send(method, `/api/v2/organizations/${TARGET}${path}`, body, token);
  const ENV = '/projects/web/environments/prod';
  /** A device of the restorer's in the target, enrolled afresh (a restore replaces devices). */
  const enroll = async (token: string): Promise<Member> => {
    const keys = generateDeviceKeyPair();
    const enrolled = await send('POST', '/devices', { name: 'laptop', public_key: keys.publicKey }, token);
    expect(enrolled.status).toBe(201);
    return { token, keys, deviceId: (enrolled.json as { id: string }).id };
  };
  const pushAs = (member: Member, key: string) =>
    ctx.send(
      'POST',
      `/api/v2/organizations/${TARGET}${ENV}/push`,
      signPush(
        { device_id: member.deviceId, changes: [{ key, value: 'pushed after the restore' }] },
        { organization: TARGET, project: 'web', environment: 'prod' },
        member.keys.privateKey,
      ),
      member.token,
    );
  /** No answer is a 5xx (the body says what broke when one is). */
  const noServerError = (what: string, answer: TargetResponse) =>
    expect({
      what,
      status: answer.status < 500 ? 'below 500' : answer.status,
      body: answer.text,
    }).toMatchObject({
      what,
      status: 'below 500',
    });

  /** After a restore of `keys`: each key pushes at its head plus one, reads, and lists each version once. */
  const usable = async (token: string, keys: readonly ModelKey[]) => {
    const member = await enroll(token);
    for (const { key, head } of keys) {
      const pushed = await pushAs(member, key);
      noServerError(`push ${key}`, pushed);
      expect({ key, status: pushed.status }).toEqual({ key, status: 200 });
      expect((pushed.json as { versions: unknown[] }).versions).toEqual([
        { key, version: head!.version + 1 },
      ]);
      const listed = await send('GET', `${ENV}/secrets/${key}/versions?limit=100`, undefined, token);
      noServerError(`versions of ${key}`, listed);
      expect({ key, status: listed.status }).toEqual({ key, status: 200 });
      const numbers = (listed.json as { versions: { version: number }[] }).versions.map((v) => v.version);
      expect({ key, top: numbers[0] }).toEqual({ key, top: head!.version + 1 });
      expect({ key, numbers }).toEqual({ key, numbers: [...new Set(numbers)].sort((a, b) => b - a) });
    }
    const pulled = await send('GET', `${ENV}/secrets`, undefined, token);
    noServerError('pull', pulled);
    expect(pulled.status).toBe(200);
  };
  return {
    ctx,
    backupOf,
    newOrganization,
    restoreLines,
    refused,
    setUp,
    withKeys,
    send,
    ENV,
    enroll,
    pushAs,
    noServerError,
    usable,
  };
}

/** Version histories past, short of or without their heads are refused, naming the line. */
function versionRuleTests(kit: RestoreVersionKit): void {
  const { restoreLines, refused, setUp, withKeys } = kit;
  it('refuses versions past their head, without a head, going backwards or short of it, and heads with no room for the next push, naming the line', async () => {
    const { base, token } = await setUp();
    const version = (n: number, extra: Line = {}): Line => ({
      kind: 'secret_version',
      project: 'web',
      environment: 'prod',
      key: 'K',
      version: n,
      deleted: false,
      value: `v${n}`,
      occurred_at: '2026-11-30T12:00:00.000Z',
      actor: null,
      device_id: null,
      event_id: null,
      ...extra,
    });
    const headOf = (n: number): Line => ({
      kind: 'secret',
      project: 'web',
      environment: 'prod',
      key: 'K',
      value: `v${n}`,
      version: n,
      updated_at: '2026-11-30T12:00:00.000Z',
    });
    // [what, the keys' lines, which of them is named, the message]
    const cases: [string, Line[], number, RegExp][] = [
      [
        'past the head',
        [headOf(2), version(1), version(2), version(3)],
        3,
        /version 3 of K is past its head/,
      ],
      ['no head', [version(1)], 0, /version 1 of K has no head/],
      ['backwards', [headOf(2), version(2), version(1)], 2, /version 1 of K follows its version 2/],
      [
        'short of the head',
        [headOf(3), version(1), version(2)],
        0,
        /K is at version 3, but its versions end at 2/,
      ],
      ['no versions', [headOf(3)], 0, /K is at version 3, but it has no secret_version lines/],
      ['a head at 2^31 - 1', [headOf(INT32_MAX), version(INT32_MAX)], 0, /\(version\).*2147483647/],
      [
        'a deleted version at a live head',
        [headOf(1), version(1, { deleted: true, value: undefined })],
        1,
        /its head, is a delete/,
      ],
      [
        'another value at the head',
        [headOf(1), version(1, { value: 'other' })],
        1,
        /does not hold the value/,
      ],
    ];
    for (const [what, keys, named, message] of cases) {
      const { lines, first } = withKeys(base, JSON.parse(JSON.stringify(keys)));
      const line = new RegExp(`^The backup is not valid: line ${first + named}: .*${message.source}`);
      refused(await restoreLines(TARGET, token, lines, true), line, what);
    }
    // The same key with a history that ends at its head restores.
    const { lines } = withKeys(base, [headOf(2), version(1), version(2)]);
    expect((await restoreLines(TARGET, token, lines, true)).status).toBe(200);
    // A format 2 backup carries no versions: its heads become them.
    const old = withKeys(base, [headOf(1), version(1)]);
    old.lines[0] = { ...old.lines[0]!, format_version: 2 };
    refused(
      await restoreLines(TARGET, token, old.lines, true),
      /line \d+: a format 2 backup has no secret_version lines/,
    );
  });
}

/** Versions naming what the server does not make are refused; generated histories restore usable or not at all. */
function versionFormatTests(kit: RestoreVersionKit): void {
  const { restoreLines, refused, setUp, withKeys, noServerError, usable } = kit;
  it('refuses versions naming devices, events or actors in formats the server does not make, naming the line', async () => {
    const { base, token } = await setUp();
    const written = {
      actor: { type: 'user', id: 'admin' },
      device_id: `dev_${'c3'.repeat(12)}`,
      event_id: `evt_${'d4'.repeat(12)}`,
    };
    const cases: [string, Line, RegExp][] = [
      ['a free-text device', { ...written, device_id: 'my laptop' }, /\(device_id\)/],
      ['a free-text event', { ...written, event_id: 'evt-1' }, /\(event_id\)/],
      ['a system actor', { ...written, actor: { type: 'system', id: 'delivery-engine' } }, /\(actor\.type\)/],
      [
        'an actor with control characters',
        { ...written, actor: { type: 'user', id: 'ad\u001bmin' } },
        /\(actor\.id\)/,
      ],
      ['an actor without device or event', { ...written, device_id: null, event_id: null }, /all be given/],
    ];
    const line = (meta: Line): Line[] => [
      {
        kind: 'secret',
        project: 'web',
        environment: 'prod',
        key: 'K',
        value: 'v',
        version: 1,
        updated_at: '2026-11-30T12:00:00.000Z',
      },
      {
        kind: 'secret_version',
        project: 'web',
        environment: 'prod',
        key: 'K',
        version: 1,
        deleted: false,
        value: 'v',
        occurred_at: '2026-11-30T12:00:00.000Z',
        ...meta,
      },
    ];
    for (const [what, meta, message] of cases) {
      const { lines, first } = withKeys(base, line(meta));
      refused(
        await restoreLines(TARGET, token, lines, true),
        new RegExp(`^The backup is not valid: line ${first + 1}: .*${message.source}`),
        what,
      );
    }
    const { lines } = withKeys(base, line(written));
    expect((await restoreLines(TARGET, token, lines, true)).status).toBe(200);
  });

  it('generated histories are refused with backup_invalid, or restored so that every later push and read of their keys answers without a 5xx', async () => {
    const { base, token } = await setUp();
    await fc.assert(
      fc.asyncProperty(modelKeys, async (keys) => {
        const { lines } = withKeys(base, linesOfKeys(keys, 'web', 'prod'));
        const answer = await restoreLines(TARGET, token, lines, true);
        noServerError('restore', answer);
        if (!wellFormed(keys)) {
          const body = expectError(answer, 422, 'backup_invalid') as { error: { message: string } };
          expect(body.error.message).toMatch(/^The backup is not valid: line \d+: /);
          return;
        }
        expect({ status: answer.status, body: answer.text }).toMatchObject({ status: 200 });
        await usable(token, keys);
      }),
      { numRuns: 40 },
    );
  }, 240_000);
}
