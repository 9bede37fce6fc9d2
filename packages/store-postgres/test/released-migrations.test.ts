/**
 * Released migrations are history: the SQL a database ran must be the SQL the code makes today.
 * Each released migration's statements, as made for the default schema, are pinned here by their
 * SHA-256; a migration above the last pinned one is not released yet, and is pinned when it is.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/index.js';
import { tablesOf } from '../src/schema-name.js';

/** [id, name, SHA-256 of the JSON array of the statements for schema `latchkey`]. */
const RELEASED: readonly (readonly [number, string, string])[] = [
  [1, 'initial', '08c543bd8face621c00f90995a400a43246cfd8db69e477283aec12a82fdf6fc'],
  [2, 'audit-webhooks', '0bb604a309df75d578eb7349ca8a321b5749ad1e3363a018164fd7758302a5fb'],
  [3, 'delivery-notifications', 'e90c0ee199c4f2943955ca5f83e8ba580a9d3f3ec3859d635f93b09be7edc298'],
  [4, 'running-totals', '99370d002ecaad2020d961eca751252525ac56e89a49812145fa04b3930e4ddc'],
  [5, 'restores', '7abca9bbd83d2e0ba48e48a301903578dc15266a8f6b92ae7915f41662b7e610'],
  [6, 'keyring', '2f6c9c1d8f15eded9ce95a6a3267e338450bffe3a48509e41776ed6c2fdc3e5a'],
  [7, 'restore-limits', '84c0d8683f0ebb8c3eb02fdf535e299c2364f874bf367117c0d96f9d4dee5555'],
  [8, 'fair-claims', '765d5020f32680f42db29ca03493f721dac2837b1d352476f14e082f314ed9cc'],
  [9, 'event-type-filters', '50d00661d353dc15003a8eef9e2d20d9a81cd66aec97651c3111fe7e097206b8'],
  [10, 'secret-versions', 'b1f305a75a06e479ac6178bd2a648d7e76b2f4edf1cd08a300c6ce85f265880d'],
  [11, 'delivery-traceparent', 'e729b98db2fd3e1604b478afef438f2803f2930200a4962bad30feac078fdd58'],
  [12, 'signature-schemes', '7089fa659015f53a6a713c3c53b67db01ba691b2758d299e81279c9da7bf1bc8'],
  [13, 'webhook-credentials', 'c966da102d9d00276f990d65557454839f8b675acf6a3bef060aa94a54f69c7f'],
  [14, 'merkle-tree', '815b47259c4aa385a4f2584b977ac94f592a3a042a731bb046b1c99c0a4a4de3'],
  [15, 'witnesses', '8807d6a523dd9acbf725145e8a2512244319a53b36d4414688ae1d7bda3cff00'],
  [16, 'pending-events', 'f8558183a3eee7644099572e321507cfc72bb45f104f81fa88066d5299f4c364'],
  [17, 'version-rows-lock-nothing', '67147d6e1315ba77e0d4a53e75846b1429e73bf1acf130216f20d12d48495831'],
  [18, 'due-deliveries-in-order', '8ea3c8de8537ffddbc602dfa24a42b90743ff164c129e72b52b8e45bf736b0ce'],
  [19, 'counted-leases', '4b777649759980e5fc76d42aa6af402a8f016de16e0a5e04f1372727aec62ec3'],
  [20, 'organization-creators', '06e88f698672360654981e00d0be33dce6417234e92b1aee92bcf23acd6163d7'],
  [21, 'webhook-replays', 'f42325d232df7dfb0e2dc344bfd1d42b572ce574d4b340c490cf0605ba6b1be4'],
  [22, 'restores-in-steps', '8ef8c5aa15f2dd049de60c6abeaa8b9e518510e26a120c6237a2d1ed901859b0'],
  [23, 'change-requests', '8735226cf01162e971f116623be282e342c72abd770f27f8fa71935abc905885'],
  [24, 'workload-identity', '375081cef90cd5266a0a22a55c0e11a0727dc484264472df769e63f29a834240'],
  [25, 'portal-sessions', '1e52bcacb5a1261802731fe0f0f124d99d6b0037c55623ca08b4736431ab618d'],
];

const digest = (statements: string[]) =>
  createHash('sha256').update(JSON.stringify(statements)).digest('hex');

describe('released migrations', () => {
  const tables = tablesOf('latchkey');

  it.each(RELEASED)('migration %i (%s) makes the statements it was released with', (id, name, sha256) => {
    const migration = MIGRATIONS.find((m) => m.id === id);
    expect(migration?.name).toBe(name);
    expect(digest(migration!.statements(tables))).toBe(sha256);
  });

  it('keeps every released migration, in order, before any new one', () => {
    expect(MIGRATIONS.slice(0, RELEASED.length).map((m) => m.id)).toEqual(RELEASED.map(([id]) => id));
  });

  it('fails on a statement changed by one character', () => {
    const [first] = RELEASED;
    const statements = MIGRATIONS[0]!.statements(tables);
    statements[0] = `${statements[0]} `;
    expect(digest(statements)).not.toBe(first![2]);
  });
});
