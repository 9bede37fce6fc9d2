import type {
  ActivityEvent,
  ActivityQuery,
  ActivityRepository,
  ActivityStreamQuery,
} from '@latchkey/core/store';
import type { SqlDriver } from '../driver.js';
import { int } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';
import { appendToChain, sealPending } from './chain.js';
import { joinedPages } from './joined-pages.js';
import type { SealedHeads } from './sealed-heads.js';
import { sqlTreeReads } from './tree.js';

/**
 * The activity log on SQL: appends lock the chain's head; queries walk an index newest first. With
 * a driver that streams (`streamLines`, outside transactions), exports stream in one query; with
 * one that does not, in keyset pages each read as one joined text.
 */
export function sqlActivity(
  db: Runner,
  t: Tables,
  stream?: SqlDriver['streamLines'],
  seals: Runner = db,
  heads?: SealedHeads,
): ActivityRepository {
  const repository: ActivityRepository = {
    ...sqlTreeReads(db, t),
    append(organizationId, draft) {
      return db.atomic((tx) => appendToChain(tx, t, organizationId, draft));
    },
    sealPending(organizationId, own) {
      return sealPending(seals, t, organizationId, own, heads);
    },
    async list(query: ActivityQuery) {
      return (await select(query)).map((r) => JSON.parse(r.body) as ActivityEvent);
    },
    async listJson(query: ActivityQuery) {
      return (await select(query)).map((r) => ({ seq: int(r.seq), json: r.body }));
    },
  };
  repository.streamJson = (query: ActivityStreamQuery) => {
    const { where, params } = conditions({ ...query, limit: 0 });
    if (stream) {
      params.push(query.throughSeq);
      return stream(
        `SELECT body FROM ${t.events} WHERE ${where.join(' AND ')} AND seq <= $${params.length} ORDER BY seq`,
        params,
      );
    }
    return joinedPages(db, t, where, params, query.throughSeq);
  };
  return repository;

  /** The WHERE conditions of `query`, and their parameters. */
  function conditions(query: ActivityQuery) {
    const where = ['organization_id = $1'];
    const params: unknown[] = [query.organizationId];
    const add = (condition: string, value: unknown) => {
      params.push(value);
      where.push(condition.replace('?', `$${params.length}`));
    };
    if (query.project !== undefined) add('project = ?', query.project);
    if (query.environment !== undefined) add('environment = ?', query.environment);
    if (query.projectEnvironments !== undefined) {
      add('(environment IS NULL OR environment = ANY(?::text[]))', query.projectEnvironments);
    }
    if (query.types !== undefined) add('type = ANY(?::text[])', query.types);
    if (query.beforeSeq !== undefined) add('seq < ?', query.beforeSeq);
    if (query.afterSeq !== undefined) add('seq > ?', query.afterSeq);
    if (query.since !== undefined) add('occurred_at >= ?', query.since);
    if (query.until !== undefined) add('occurred_at < ?', query.until);
    return { where, params };
  }

  /** The rows `query` selects: the stored JSON and its seq. */
  async function select(query: ActivityQuery) {
    const { where, params } = conditions(query);
    params.push(query.limit);
    const { rows } = await db.query<{ seq: unknown; body: string }>(
      `SELECT seq, body FROM ${t.events} WHERE ${where.join(' AND ')} ORDER BY seq ${query.oldestFirst ? 'ASC' : 'DESC'} LIMIT $${params.length}`,
      params,
    );
    return rows;
  }
}
