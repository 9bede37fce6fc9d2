import { describe, expect, it } from 'vitest';
import { outboxState, outboxTable } from './outbox.js';

describe('the outbox fan-out rule', () => {
  it('queues pending for an active webhook, held for a dead-lettered one, nothing for a disabled one', () => {
    expect(outboxState('active', 'push_applied')).toBe('pending');
    expect(outboxState('dead_letter', 'push_applied')).toBe('held');
    expect(outboxState('disabled', 'push_applied')).toBeNull();
  });

  it('never queues a webhook test', () => {
    for (const status of ['active', 'dead_letter', 'disabled'] as const) {
      expect(outboxState(status, 'webhook_test')).toBeNull();
    }
  });

  it('is the same rule as SQL parameters', () => {
    expect(outboxTable('push_applied')).toEqual({
      statuses: ['active', 'dead_letter'],
      states: ['pending', 'held'],
    });
    expect(outboxTable()).toEqual(outboxTable('push_applied'));
    expect(outboxTable('webhook_test')).toEqual({ statuses: [], states: [] });
  });
});
