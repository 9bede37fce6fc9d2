/**
 * Statements on PGlite's wire protocol, each one call into the engine. PGlite's own `query` makes
 * six (parse, describe, bind, describe, execute, sync: each a turn of PostgreSQL's main loop and a
 * parse of its answer) and parses and plans the text every time; its `transaction` adds two calls
 * for BEGIN and two for COMMIT. Here a statement with parameters is prepared once under a name and
 * each execution is one buffer (bind, describe, execute, sync); a transaction's BEGIN goes in the
 * buffer of its first statement, and the statements it defers go with its next one or its COMMIT,
 * as on node-postgres. PostgreSQL runs the messages of a buffer in order, as it would from a socket.
 */
import type { messages, PGlite } from '@electric-sql/pglite';
import type { SqlQueryable, SqlResult } from '../../driver.js';

type PgliteLibrary = typeof import('@electric-sql/pglite');
type BackendMessage = messages.BackendMessage;

/** Prepared statements kept per database; the least recently used one past it is closed. */
export const PGLITE_PREPARED_LIMIT = 250;

/**
 * Numbers the statements of every driver in the process, so two drivers over one PGlite instance
 * (given to them, one after the other or at once) never prepare the same name.
 */
let statementCount = 0;

/** A statement to send: its text and parameters. */
interface Statement {
  text: string;
  params: readonly unknown[];
}

/** How the store's driver reaches PGlite: statements in single calls, and transactions of them. */
export interface PgliteWire {
  /** One statement outside any transaction (it waits for a running transaction to end). */
  query<Row>(text: string, params?: readonly unknown[]): Promise<SqlResult<Row>>;
  /** `fn` in BEGIN … COMMIT, rolled back when it throws (the error is rethrown). */
  transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  /** Closes the statements prepared so far, on a database that stays open after the driver. */
  release(): Promise<void>;
}

/** PGlite's own locks: one held through a whole transaction, one for each call into the engine. */
interface Locks {
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
}

/** The statements prepared on one database, and the calls that send them. */
class Statements {
  private readonly prepared = new Map<string, { name: string; types: number[] }>();
  /** Close messages of statements let go, sent ahead of the next call. */
  private closing: Uint8Array[] = [];
  private readonly serialize: PgliteLibrary['protocol']['serialize'];

  constructor(
    private readonly db: PGlite,
    private readonly lib: PgliteLibrary,
  ) {
    this.serialize = lib.protocol.serialize;
  }

  /**
   * `statements` in one call, behind a BEGIN if `begin`, then `last` as a simple query if given;
   * the answers of the last one. A failure of any throws PostgreSQL's error (those after it up to
   * their sync are skipped by PostgreSQL; a simple query after them still runs).
   */
  async send(statements: Statement[], begin: boolean, last?: string): Promise<BackendMessage[]> {
    const messages = begin ? [this.serialize.query('BEGIN')] : [];
    for (const statement of statements) messages.push(...(await this.messagesOf(statement)));
    if (last) messages.push(this.serialize.query(last));
    const parts = await this.run(messages);
    return parts[parts.length - 2] ?? [];
  }

  /** The rows and count of one statement's answers, as PGlite's `query` gives them. */
  resultOf<Row>(answers: BackendMessage[]): SqlResult<Row> {
    const [result] = this.lib.parse.parseResults(answers, this.db.parsers);
    const rows = (result?.rows ?? []) as Row[];
    return { rows, rowCount: result?.affectedRows ?? rows.length };
  }

  /** Runs `messages` in one call; the answers of each statement, split at their completions. */
  private async run(messages: Uint8Array[]): Promise<BackendMessage[][]> {
    const all = [...this.closing.splice(0), ...messages];
    const buffer = new Uint8Array(all.reduce((n, m) => n + m.length, 0));
    let at = 0;
    for (const message of all) {
      buffer.set(message, at);
      at += message.length;
    }
    const locks = this.db as unknown as Locks;
    let answers: BackendMessage[];
    try {
      answers = await locks.runExclusive(() => this.db.execProtocolStream(buffer, { syncToFs: false }));
    } catch (error) {
      // Statements prepared before a migration changed what they return: prepared again next time.
      if (/cached plan must not change result type/.test(String((error as Error).message))) {
        for (const { name } of this.prepared.values()) this.closing.push(this.closeOf(name));
        this.prepared.clear();
      }
      throw error;
    }
    const parts: BackendMessage[][] = [[]];
    for (const answer of answers) {
      parts[parts.length - 1]!.push(answer);
      if (answer.name === 'commandComplete' || answer.name === 'emptyQuery') parts.push([]);
    }
    return parts;
  }

  /** Closes every statement prepared so far (one call). */
  async release(): Promise<void> {
    for (const { name } of this.prepared.values()) this.closing.push(this.closeOf(name));
    this.prepared.clear();
    if (this.closing.length > 0) await this.run([this.serialize.sync()]);
  }

  private closeOf(name: string): Uint8Array {
    return this.serialize.close({ type: 'S', name });
  }

  /** The statement's name and parameter types, prepared now (one call) if it is not yet. */
  private async prepare(text: string): Promise<{ name: string; types: number[] }> {
    const known = this.prepared.get(text);
    if (known) {
      this.prepared.delete(text);
      this.prepared.set(text, known);
      return known;
    }
    const name = `lk_${++statementCount}`;
    const [described] = await this.run([
      this.serialize.parse({ name, text }),
      this.serialize.describe({ type: 'S', name }),
      this.serialize.sync(),
    ]);
    const statement = { name, types: this.lib.parse.parseDescribeStatementResults(described ?? []) };
    this.prepared.set(text, statement);
    if (this.prepared.size > PGLITE_PREPARED_LIMIT) {
      const [oldest, old] = this.prepared.entries().next().value as [string, { name: string }];
      this.prepared.delete(oldest);
      this.closing.push(this.closeOf(old.name));
    }
    return statement;
  }

  /** The messages of one statement: prepared and bound to its parameters, or unnamed without any. */
  private async messagesOf({ text, params }: Statement): Promise<Uint8Array[]> {
    const s = this.serialize;
    const execute = [s.describe({ type: 'P' }), s.execute({}), s.sync()];
    if (params.length === 0) return [s.parse({ text }), s.bind({}), ...execute];
    const { name, types } = await this.prepare(text);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = this.db.serializers[types[i]!];
      return serializer ? serializer(value) : String(value);
    });
    return [s.bind({ statement: name, values }), ...execute];
  }
}

/** One transaction: BEGIN with its first statement, deferred statements with the next or the COMMIT. */
async function transactionOnce<T>(
  statements: Statements,
  lib: PgliteLibrary,
  fn: (tx: SqlQueryable) => Promise<T>,
): Promise<T> {
  let opened = false;
  let deferred: Statement[] = [];
  // The transaction's statements one after the other, in the order they were sent.
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <R>(step: () => Promise<R>): Promise<R> => {
    const next = turn.then(step, step);
    turn = next.catch(() => {});
    return next;
  };
  const tx: SqlQueryable = {
    query: <Row>(text: string, params: readonly unknown[] = []) =>
      inTurn(async () => {
        const begin = !opened;
        opened = true;
        const answers = await statements.send([...deferred.splice(0), { text, params }], begin);
        return statements.resultOf<Row>(answers);
      }),
    defer: (text, params = []) => {
      deferred.push({ text, params });
    },
  };
  try {
    const result = await fn(tx);
    await turn;
    if (opened || deferred.length > 0) {
      const begin = !opened;
      opened = true;
      const answers = await statements.send(deferred.splice(0), begin, 'COMMIT');
      opened = false;
      // A COMMIT of a transaction that failed answers ROLLBACK: PGlite's own transaction throws then.
      const tag = answers.find((m) => m.name === 'commandComplete') as { text?: string } | undefined;
      if (tag?.text === 'ROLLBACK') throw new lib.TransactionAbortedError();
    }
    return result;
  } catch (error) {
    await turn;
    deferred = [];
    // After a failed deferred statement its COMMIT ran and rolled back: this ROLLBACK only warns.
    if (opened) await statements.send([], false, 'ROLLBACK').catch(() => {});
    throw error;
  }
}

/** The wire over `db`; `lib` is PGlite's module (its protocol serializer and result parser). */
export function pgliteWire(db: PGlite, lib: PgliteLibrary): PgliteWire {
  const statements = new Statements(db, lib);
  const locks = db as unknown as Locks;
  return {
    query: <Row>(text: string, params: readonly unknown[] = []) =>
      locks._runExclusiveTransaction(async () => {
        const result = statements.resultOf<Row>(await statements.send([{ text, params }], false));
        await db.syncToFs();
        return result;
      }),
    transaction: (fn) =>
      locks._runExclusiveTransaction(async () => {
        const result = await transactionOnce(statements, lib, fn);
        await db.syncToFs();
        return result;
      }),
    release: () => locks._runExclusiveTransaction(() => statements.release()),
  };
}
