/** What `audit_webhook_updated` says of a change: only what differs, the URL by host, credentials by name. */
import { describe, expect, it } from 'vitest';
import type { AuditWebhook } from '../../model/model.js';
import { updatedEventData } from './update-event.js';

const before: AuditWebhook = {
  id: 'awh_1',
  organization_id: 'org_1',
  name: 'siem',
  url: 'https://old.example.com/in?token=secret',
  status: 'active',
  event_types: ['secret_*'],
  signature_scheme: 'latchkey',
  previous_secret: null,
  secret_sealed: 'sealed',
  headers: [{ name: 'X-Api-Key', value_sealed: 'v1' }],
  client_certificate: null,
  consecutive_failures: 0,
  last_delivery: null,
  last_error: null,
  created_at: '2026-01-01T00:00:00.000Z',
  created_by: 'usr_1',
};

describe('updatedEventData', () => {
  it('names only the fields that differ, and the old URL by its host, never its token', () => {
    const after = { ...before, name: 'siem-2', url: 'https://new.example.com/in' };
    const data = updatedEventData(before, after);
    expect(data.changed).toEqual(['name', 'url']);
    expect(data.from).toEqual({ name: 'siem', host: 'old.example.com' });
    expect(data.host).toBe('new.example.com');
    expect(JSON.stringify(data)).not.toContain('token=secret');
  });

  it('counts headers set afresh as changed, by name only, and a scheme that was absent as latchkey', () => {
    const { signature_scheme: _, ...stored } = before;
    const after: AuditWebhook = {
      ...before,
      signature_scheme: 'standard-webhooks',
      headers: [{ name: 'X-Api-Key', value_sealed: 'v2' }],
    };
    const data = updatedEventData(stored, after);
    expect(data.changed).toEqual(['signature_scheme', 'headers']);
    expect(data.from).toEqual({ signature_scheme: 'latchkey', headers: ['X-Api-Key'] });
    expect(data.headers).toEqual(['X-Api-Key']);
    expect(JSON.stringify(data)).not.toContain('v2');
  });

  it('says nothing changed when nothing differs, filters compared in order', () => {
    expect(updatedEventData(before, { ...before }).changed).toEqual([]);
    const reordered = { ...before, event_types: ['a', 'b'] };
    expect(updatedEventData(reordered, { ...before, event_types: ['b', 'a'] }).changed).toEqual([
      'event_types',
    ]);
  });
});
