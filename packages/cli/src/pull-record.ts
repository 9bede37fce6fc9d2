/**
 * What `pull` (or a successful `push`) left in a secrets file, so the next `pull` can tell the
 * user's edits from the server's changes: per server, organization, `project/env` and file (its
 * absolute path), in `state.json` beside the versions, one keyed hash per key. The hash is
 * HMAC-SHA-256 of the value under a random 32-byte salt kept with the record, so a record does not
 * let anyone test guesses of a short value against a plain hash computed once for everyone.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ConfigStore } from './config.js';

/**
 * The record of one file. `values[key]` is the keyed hash of the value left; a key absent from
 * `values` was absent from the file; `null` means unknown (a key left in conflict by a merge with no
 * record), which matches nothing, so the key stays edited until it is settled.
 */
export interface PullRecord {
  /** base64url, 32 random bytes. */
  salt: string;
  values: Record<string, string | null>;
}

/** Where a record lives. */
export interface RecordPlace {
  url: string;
  org: string;
  project: string;
  env: string;
  /** The file, absolute. */
  file: string;
}

const scopeKey = (place: RecordPlace) => `${place.project}/${place.env}`;

/** The keyed hash of `value` under `salt`. */
export function hashValue(salt: string, value: string): string {
  return createHmac('sha256', Buffer.from(salt, 'base64url')).update(value, 'utf8').digest('base64url');
}

/** A record of `values`, under `salt` or a new one. */
export function recordOf(
  values: Record<string, string>,
  salt = randomBytes(32).toString('base64url'),
): PullRecord {
  return {
    salt,
    values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, hashValue(salt, v)])),
  };
}

/**
 * Whether `value` (undefined: the key absent) is what the record says was left for `key`; false
 * for every value when there is no record or the key's entry is unknown.
 */
export function wasLeft(record: PullRecord | undefined, key: string, value: string | undefined): boolean {
  if (!record) return false;
  if (!Object.hasOwn(record.values, key)) return value === undefined;
  const entry = record.values[key];
  if (entry === null || entry === undefined || value === undefined) return false;
  const expected = Buffer.from(entry, 'base64url');
  const actual = Buffer.from(hashValue(record.salt, value), 'base64url');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The record of the file at `place`, or undefined when none was kept (never pulled there, or an older CLI). */
export function readRecord(config: ConfigStore, place: RecordPlace): PullRecord | undefined {
  const { url, org } = place;
  return config.state(url, org).pulled?.[scopeKey(place)]?.[place.file];
}

/** Replaces the record of the file at `place`. */
export function writeRecord(config: ConfigStore, place: RecordPlace, record: PullRecord): void {
  config.updateState(place.url, place.org, (state) => {
    state.pulled ??= {};
    state.pulled[scopeKey(place)] = { ...state.pulled[scopeKey(place)], [place.file]: record };
  });
}
