import { describe, expect, it } from 'vitest';
import { type EventType, eventDraft } from '../activity/event-types/index.js';
import type { PushEventTemplate } from '../model/push-event.js';
import type { KeyHead } from '../model/push-plan.js';
import { pushEvent } from './push-event.js';
import { planPush } from './push-plan.js';

const template = (mode: PushEventTemplate['mode']): PushEventTemplate => ({
  id: 'evt_1',
  occurred_at: '2026-12-01T00:00:00.000Z',
  organization: 'acme',
  project: 'web',
  environment: 'prod',
  actor: { type: 'user', id: 'ann' },
  device_id: 'dev_1',
  mode,
});
const LENIENT = { strict: false, force: false };
const heads = new Map<string, KeyHead>([
  ['A', { version: 2, deleted: false }],
  ['B', { version: 1, deleted: false }],
]);
const changes = [
  { key: 'A', value: 'x', if_version: 1 },
  { key: 'B', value: null, if_version: 1 },
  { key: 'C', value: 'y' },
];

/** The draft as the catalog checks it: a `data` off its type's schema throws. */
const checked = (draft: ReturnType<typeof pushEvent>) =>
  eventDraft({ ...draft, type: draft.type as EventType, data: draft.data as never });

describe('pushEvent', () => {
  it('records an applied push with the template and each version the plan writes', () => {
    const plan = planPush(heads, changes.slice(1), false);
    const draft = pushEvent(plan, template({ strict: true, force: false }));
    expect(checked(draft)).toEqual({
      id: 'evt_1',
      occurred_at: '2026-12-01T00:00:00.000Z',
      organization: 'acme',
      project: 'web',
      environment: 'prod',
      actor: { type: 'user', id: 'ann' },
      device_id: 'dev_1',
      type: 'push_applied',
      data: {
        conflict_mode: 'strict',
        versions: [
          { key: 'B', version: 2, deleted: true },
          { key: 'C', version: 1, deleted: false },
        ],
      },
    });
  });

  it('records a forced push with what each key written overwrote', () => {
    const plan = planPush(heads, changes, true);
    const draft = pushEvent(plan, template({ strict: false, force: true }));
    expect(checked(draft)).toMatchObject({
      type: 'push_force_overwrite',
      data: {
        conflict_mode: 'lenient',
        keys: [
          { key: 'A', server_version: 2, client_if_version: 1, new_version: 3, deleted: false },
          { key: 'B', server_version: 1, client_if_version: 1, new_version: 2, deleted: true },
          { key: 'C', server_version: 0, client_if_version: null, new_version: 1, deleted: false },
        ],
      },
    });
  });

  it('records a conflict with the plan conflicts, under the same id', () => {
    const plan = planPush(heads, changes, false);
    const draft = pushEvent(plan, template(LENIENT));
    expect(checked(draft)).toMatchObject({
      id: 'evt_1',
      device_id: 'dev_1',
      type: 'push_conflict',
      data: { conflict_mode: 'lenient', conflicts: [{ key: 'A', server_version: 2, client_if_version: 1 }] },
    });
  });

  it('is a value of its inputs: the same plan and template make equal drafts, key order included', () => {
    const plan = planPush(heads, changes.slice(1), false);
    const a = pushEvent(plan, template(LENIENT));
    const b = pushEvent(plan, { ...template(LENIENT) });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(Object.keys(a)).toEqual([
      'id',
      'occurred_at',
      'organization',
      'project',
      'environment',
      'actor',
      'device_id',
      'type',
      'data',
    ]);
  });
});
