import type { ActivityEvent, ActivityQuery, ActivityRepository } from '@latchkey/core';
import { int } from '../rows.js';
import type { Runner } from '../runner.js';
import type { Tables } from '../schema-name.js';
import { appendToChain } from './chain.js';

/** The activity log on SQL: appends lock the chain's head; queries walk an index newest first. */
export function sqlActivity(db: Runner, t: Tables): ActivityRepository {
  return {
    append(organizationId, draft) {
      return db.atomic((tx) => appendToChain(tx, t, organizationId, draft));
    },
    async list(query: ActivityQuery) {
      return (await select(query)).map((r) => JSON.parse(r.body) as ActivityEvent);
    },
    async listJson(query: ActivityQuery) {
      return (await select(query)).map((r) => ({ seq: int(r.seq), json: r.body }));
    },
  };

  /** The rows `query` selects: the stored JSON and its seq. */
  async function select(query: ActivityQuery) {
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
    params.push(query.limit);
    const { rows } = await db.query<{ seq: unknown; body: string }>(
      `SELECT seq, body FROM ${t.events} WHERE ${where.join(' AND ')} ORDER BY seq ${query.oldestFirst ? 'ASC' : 'DESC'} LIMIT $${params.length}`,
      params,
    );
    return rows;
  }
}
