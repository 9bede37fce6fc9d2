/**
 * Each key's history in a backup, held to its head: a push writes the head's version plus one, so a
 * restored key whose versions ran past its head, or that had versions and no head, would have its
 * next push collide with a version it already holds (a unique violation on SQL, two different
 * versions of one number in memory). The backup writes an environment's heads before its versions,
 * each key's versions oldest first; this follows that order. A key's versions go up, end at its
 * head, and the version at the head says what the head says (deleted or not, the same value).
 */
import { createHash } from 'node:crypto';

/** A head as the reader passes it: a `secret` or `deleted_secret` line. */
export interface HeadLine {
  project: string;
  environment: string;
  key: string;
  version: number;
  /** The value of a live head; absent for a deleted one. */
  value?: string | undefined;
}

/** A `secret_version` line, as far as this check reads it. */
export interface VersionLine extends HeadLine {
  deleted: boolean;
}

/** What is known of one key: its head, the line naming it, and the last version seen so far. */
interface KeyState {
  key: string;
  head: number;
  deleted: boolean;
  /** SHA-256 of a live head's value (so a line's value is not held), null for a deleted head. */
  valueHash: string | null;
  line: number;
  /** The last version seen, 0 before the first. */
  last: number;
}

const hashOf = (value: string) => createHash('sha256').update(value, 'utf8').digest('base64');

/** The heads and versions of a backup's keys, checked line by line and at the end of the secrets. */
export class KeyHistoryCheck {
  private readonly keys = new Map<string, KeyState>();

  /** `refuse` makes the error naming a line (the reader's `invalidBackup`). */
  constructor(private readonly refuse: (line: number, message: string) => Error) {}

  /** A key's head; a second head of one key is refused. */
  head(line: number, record: HeadLine): void {
    const id = `${record.project}/${record.environment}/${record.key}`;
    if (this.keys.has(id)) throw this.refuse(line, `secret ${record.key} appears twice`);
    this.keys.set(id, {
      key: record.key,
      head: record.version,
      deleted: record.value === undefined,
      valueHash: record.value === undefined ? null : hashOf(record.value),
      line,
      last: 0,
    });
  }

  /** One version of a key, after its head and the versions before it. */
  version(line: number, record: VersionLine): void {
    const { key, version } = record;
    const state = this.keys.get(`${record.project}/${record.environment}/${key}`);
    if (!state) {
      throw this.refuse(
        line,
        `version ${version} of ${key} has no head: no secret or deleted_secret line of the key comes before it`,
      );
    }
    if (version <= state.last) {
      throw this.refuse(
        line,
        `version ${version} of ${key} follows its version ${state.last}: versions go up`,
      );
    }
    if (version > state.head) {
      throw this.refuse(
        line,
        `version ${version} of ${key} is past its head (version ${state.head}): its next push would write a version it already has`,
      );
    }
    if (version === state.head) this.atHead(line, state, record);
    state.last = version;
  }

  /** The version a head is at must be that head: deleted or not alike, and a live one's value. */
  private atHead(line: number, state: KeyState, record: VersionLine): void {
    const what = `version ${record.version} of ${record.key}, its head,`;
    if (record.deleted !== state.deleted) {
      throw this.refuse(
        line,
        `${what} is ${record.deleted ? 'a delete' : 'a value'}, the head ${state.deleted ? 'a delete' : 'a value'}`,
      );
    }
    if (
      state.valueHash !== null &&
      (record.value === undefined || hashOf(record.value) !== state.valueHash)
    ) {
      throw this.refuse(line, `${what} does not hold the value of the head`);
    }
  }

  /**
   * At the end of the secrets: with `versionsRequired` (a backup of format 3 and later, which carries
   * every key's history), each key's versions must have reached its head. Forgets every key after.
   */
  finish(versionsRequired: boolean): void {
    if (versionsRequired) {
      for (const state of this.keys.values()) {
        if (state.last === state.head) continue;
        const ends =
          state.last === 0 ? 'it has no secret_version lines' : `its versions end at ${state.last}`;
        throw this.refuse(state.line, `secret ${state.key} is at version ${state.head}, but ${ends}`);
      }
    }
    this.keys.clear();
  }
}
