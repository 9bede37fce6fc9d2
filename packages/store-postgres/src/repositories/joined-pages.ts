/**
 * The export's read for a driver that cannot stream a result (PGlite): keyset pages, each asked of
 * the database as one text of newline-joined lines (`string_agg`) rather than as thousands of rows,
 * which the driver would otherwise decode and wrap one by one. The next page is asked for while
 * the current one is handed over, so at most two are held.
 */
import type { SqlQueryable } from '../driver.js';
import { int } from '../rows.js';
import type { Tables } from '../schema-name.js';

/** Events per page. */
const JOINED_PAGE = 5_000;

interface Page {
  lines: number;
  last: number;
  text: string | null;
}

/**
 * Pages of the events `where` selects (its parameters in `params`), oldest first, with `seq` up to
 * `throughSeq`: each the lines' text ending in `\\n`. The page query has no upper bound on `seq`
 * (an ordered index scan that stops after a page, whatever the statistics); lines beyond
 * `throughSeq` are left out of the joined text instead.
 */
export async function* joinedPages(
  db: SqlQueryable,
  t: Tables,
  where: readonly string[],
  params: readonly unknown[],
  throughSeq: number,
  pageSize = JOINED_PAGE,
): AsyncGenerator<string> {
  const n = params.length;
  const text = `SELECT count(*)::int AS lines, max(seq) AS last,
      string_agg(body, E'\\n' ORDER BY seq) FILTER (WHERE seq <= $${n + 2}) AS text
    FROM (SELECT seq, body FROM ${t.events} WHERE ${where.join(' AND ')} AND seq > $${n + 1}
          ORDER BY seq LIMIT ${Math.floor(pageSize)}) AS page`;
  const read = async (afterSeq: number): Promise<Page> => {
    const { rows } = await db.query<{ lines: number; last: unknown; text: string | null }>(text, [
      ...params,
      afterSeq,
      throughSeq,
    ]);
    const row = rows[0]!;
    return { lines: row.lines, last: row.last === null ? 0 : int(row.last), text: row.text };
  };
  if (throughSeq <= 0) return;
  let next: Promise<Page> | null = read(0);
  while (next) {
    const page: Page = await next;
    next = page.lines === pageSize && page.last < throughSeq ? read(page.last) : null;
    if (page.text !== null) yield `${page.text}\n`;
  }
}
