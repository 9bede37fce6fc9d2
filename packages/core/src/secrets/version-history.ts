/**
 * Reading a key's history: a page of its versions newest first, walked with an opaque cursor, and
 * with `include_values` the kept values, opened, for a caller who may pull the environment's
 * secrets. Reading values is recorded as `secret_versions_read` in the same unit of work as the read.
 */
import { authorize, type Principal } from '../auth/permissions.js';
import { LatchkeyError } from '../errors/latchkey-error.js';
import type { Keyring } from '../keyring/keyring.js';
import type { ActivityDraft, Environment, Project } from '../model/model.js';
import type { StoredSecretVersion } from '../model/secret-version.js';
import { SecretKeySchema } from '../schemas/api.js';
import type { LatchkeyStore } from '../store/types.js';
import { openSecretValue } from './values.js';

/** What a history read needs. */
export interface VersionHistoryRead {
  store: LatchkeyStore;
  keyring: Keyring | undefined;
  principal: Principal;
  organizationId: string;
  project: Project;
  environment: Environment;
  /** The key as the path names it, not yet checked. */
  key: string;
  limit: number;
  cursor: string | undefined;
  includeValues: boolean;
  /** Makes the request's activity event. */
  event(type: string, data: Record<string, unknown>): ActivityDraft;
  /** Decides a permission (the role table's `authorize`, replaceable for tests). */
  authorize?: typeof authorize;
}

/** One version as the API answers it. */
export interface VersionView {
  version: number;
  deleted: boolean;
  occurred_at: string;
  actor: { type: 'user' | 'system' | 'workload'; id: string } | null;
  device_id: string | null;
  event_id: string | null;
  value?: string;
}

/** The cursor of the page after the one ending at `version`: opaque to clients. */
export function encodeVersionCursor(version: number): string {
  return Buffer.from(`v1:${version}`).toString('base64url');
}

/** The version a cursor stands for, or a 400 for anything not made by {@link encodeVersionCursor}. */
export function decodeVersionCursor(cursor: string): number {
  const match = /^v1:([1-9][0-9]{0,9})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const version = match ? Number(match[1]) : Number.NaN;
  if (!(Number.isSafeInteger(version) && version <= 2_147_483_647)) {
    throw new LatchkeyError('invalid_request', 'The cursor is not one this API gave out.', {
      details: [{ path: 'query.cursor', message: 'not a next_cursor of an earlier page' }],
    });
  }
  return version;
}

/** A page of the key's versions; with values, read and recorded in one transaction. */
export async function readVersionHistory(
  read: VersionHistoryRead,
): Promise<{ versions: VersionView[]; next_cursor: string | null }> {
  if (!SecretKeySchema.safeParse(read.key).success) {
    throw new LatchkeyError('invalid_request', 'The key in the path is not a valid secret key.', {
      details: [
        { path: 'path.key', message: 'must start with a letter or _ and use A-Z, a-z, 0-9, _, . or -' },
      ],
    });
  }
  const decide = read.authorize ?? authorize;
  if (read.includeValues) {
    const target = { project: read.project.slug, environment: read.environment.slug };
    if (!decide(read.principal, 'secrets:read', target).ok) {
      throw new LatchkeyError('forbidden', 'Your role does not allow secrets:read here (include_values).');
    }
  }
  const page = {
    beforeVersion: read.cursor === undefined ? undefined : decodeVersionCursor(read.cursor),
    limit: read.limit + 1,
  };
  const list = (store: Pick<LatchkeyStore, 'secrets'>) =>
    store.secrets.listVersions(read.environment.id, read.key, page);
  let rows: StoredSecretVersion[];
  let views: VersionView[];
  if (read.includeValues) {
    ({ rows, views } = await read.store.transaction(async (tx) => {
      const rows = await list(tx);
      const views = toViews(read, rows.slice(0, read.limit));
      const versions = views.filter((v) => v.value !== undefined).map((v) => v.version);
      await tx.activity.append(
        read.organizationId,
        read.event('secret_versions_read', { key: read.key, versions }),
      );
      return { rows, views };
    }));
  } else {
    rows = await list(read.store);
    views = toViews(read, rows.slice(0, read.limit));
  }
  const last = views[views.length - 1];
  return {
    versions: views,
    next_cursor: rows.length > read.limit && last ? encodeVersionCursor(last.version) : null,
  };
}

function toViews(read: VersionHistoryRead, rows: readonly StoredSecretVersion[]): VersionView[] {
  return rows.map((row) => {
    const view: VersionView = {
      version: row.version,
      deleted: row.deleted,
      occurred_at: row.occurred_at,
      actor: row.actor,
      device_id: row.device_id,
      event_id: row.event_id,
    };
    if (read.includeValues && !row.deleted && row.value !== null) {
      view.value = openSecretValue(read.keyring, read.environment.id, row.key, row.value);
    }
    return view;
  });
}
