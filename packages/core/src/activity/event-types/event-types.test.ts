import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEventTypes, EVENT_TYPE_GROUPS, EVENT_TYPE_NAMES, EVENT_TYPES, eventDraft } from './index.js';

const base = {
  id: 'evt_test0000000000000000',
  occurred_at: '2026-11-27T00:00:00.000Z',
  organization: 'acme',
  actor: { type: 'user' as const, id: 'admin' },
};

describe('the event-type catalog', () => {
  it('puts every type in exactly one group, and has no type twice', () => {
    const grouped = Object.values(EVENT_TYPE_GROUPS).flatMap((group) => Object.keys(group));
    expect(grouped.sort()).toEqual([...EVENT_TYPE_NAMES].sort());
    expect(new Set(grouped).size).toBe(grouped.length);
    for (const name of EVENT_TYPE_NAMES) expect(name).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
  });

  it('lists secret_versions_read exactly as the version history records it', () => {
    const entry = describeEventTypes().find((t) => t.type === 'secret_versions_read')!;
    expect(entry.description).toBe("Values of a secret's kept versions were read");
    expect(EVENT_TYPES.secret_versions_read.data.safeParse({ key: 'DB_URL', versions: [3, 2] }).success).toBe(
      true,
    );
  });

  it('serves each data schema as JSON Schema 2020-12 that accepts what the zod schema accepts', () => {
    const samples: Record<string, unknown> = {
      push_applied: { conflict_mode: 'lenient', versions: [{ key: 'A', version: 1, deleted: false }] },
      token_revoked: { token_id: 'tok_1' },
      device_revoked: {},
    };
    for (const described of describeEventTypes()) {
      expect(described.data_schema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
      const sample = samples[described.type];
      if (sample === undefined) continue;
      const back = z.fromJSONSchema(described.data_schema as z.core.JSONSchema.JSONSchema);
      expect(back.safeParse(sample).success, described.type).toBe(true);
      expect(back.safeParse({ ...(sample as object), extra: 1 }).success, described.type).toBe(false);
    }
  });

  it('refuses to make an event whose data does not match its type', () => {
    expect(eventDraft({ ...base, type: 'token_revoked', data: { token_id: 'tok_1' } }).data).toEqual({
      token_id: 'tok_1',
    });
    expect(() =>
      eventDraft({
        ...base,
        type: 'token_revoked',
        data: { token_id: 7 } as unknown as { token_id: string },
      }),
    ).toThrow(/token_revoked does not match/);
  });
});
