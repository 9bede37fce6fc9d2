/**
 * Several statements in one round trip on a node-postgres client: PostgreSQL's extended protocol
 * lets a client send Parse/Bind/Describe/Execute for many statements and one Sync, and answers them
 * in order. node-postgres sends one statement per round trip; this is a query object of its own
 * (a "submittable", as pg-cursor is) that the client queues and routes the answers to like any
 * other, so the connection's prepared statements stay in the client's books.
 *
 * The statements run in order. The first that fails ends the pipeline: the server skips the rest up
 * to the Sync, and the pipeline rejects with that error (inside a transaction the transaction is
 * then aborted, as after any failed statement). Without an open transaction the statements up to
 * the Sync form one implicit transaction; the store only pipelines inside its own BEGIN … COMMIT.
 */
import type { PoolClient, QueryResult } from 'pg';
import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';

/** One statement of a pipeline: its text, its parameters, and its prepared statement's name, if any. */
export interface PipelinedStatement {
  text: string;
  values?: readonly unknown[];
  /** A name prepares the statement once per connection; without one it is parsed every time. */
  name?: string;
}

/** What of node-postgres' connection a pipeline uses (the same calls its own queries make). */
interface Connection {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  stream: { cork?(): void; uncork?(): void };
  parse(config: { text: string; name: string; types?: unknown[] }): void;
  bind(config: { statement: string; values: unknown[]; portal: string; binary: boolean }): void;
  describe(config: { type: 'P'; name: string }): void;
  execute(config: { portal: string; rows: number }): void;
  sync(): void;
}

interface Field {
  name: string;
  dataTypeID: number;
  format: 'text' | 'binary';
}

/** The answer to one statement, as node-postgres' own results have it (rows as objects). */
type Answer = Pick<QueryResult, 'rows' | 'rowCount' | 'command'>;

/** A query object node-postgres' client runs like its own `Query`: it sends a pipeline, it reads the answers. */
class Pipeline {
  private at = 0;
  private readonly answers: Answer[] = [];
  private parsers: ((value: string) => unknown)[] = [];
  private fields: Field[] = [];
  private rows: Record<string, unknown>[] = [];
  /** Names whose Parse this pipeline sent, to forget again if the server skipped it. */
  private readonly parsing = new Set<string>();
  private settled = false;

  constructor(
    private readonly statements: readonly PipelinedStatement[],
    private readonly values: unknown[][],
    private readonly done: (error: Error | null, answers: Answer[]) => void,
  ) {}

  /** The statement answered now: the client files a ParseComplete or an error under its name. */
  get name(): string | undefined {
    return this.statements[this.at]?.name;
  }

  get text(): string | undefined {
    return this.statements[this.at]?.text;
  }

  /**
   * Sends the pipeline. Like node-postgres' own queries it answers a statement it cannot send with
   * an error (which the client reports through `handleError`) rather than throwing, and it finds
   * such a statement before anything is written.
   */
  submit(connection: Connection): Error | null {
    const parse: boolean[] = [];
    // Names this pipeline parses: a second use of one is bound, not parsed again.
    const here = new Map<string, string>();
    for (const statement of this.statements) {
      const name = statement.name ?? '';
      const known =
        name &&
        (connection.parsedStatements[name] ?? connection.submittedNamedStatements[name] ?? here.get(name));
      if (known && known !== statement.text) return new Error(`prepared statement ${name} names two texts`);
      if (name && !known) here.set(name, statement.text);
      parse.push(!known);
    }
    connection.stream.cork?.();
    try {
      this.statements.forEach((statement, i) => {
        const name = statement.name ?? '';
        if (parse[i]) {
          connection.parse({ text: statement.text, name });
          if (name) {
            connection.submittedNamedStatements[name] = statement.text;
            this.parsing.add(name);
          }
        }
        connection.bind({ statement: name, values: this.values[i]!, portal: '', binary: false });
        connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '', rows: 0 });
      });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: { fields: Field[] }): void {
    this.fields = message.fields;
    this.parsers = message.fields.map((f) => pg.types.getTypeParser(f.dataTypeID, f.format) as never);
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    const row: Record<string, unknown> = {};
    message.fields.forEach((value, i) => {
      row[this.fields[i]!.name] = value === null ? null : this.parsers[i]!(value);
    });
    this.rows.push(row);
  }

  handleCommandComplete(message: { text: string }): void {
    // "INSERT 0 3", "UPDATE 2", "SELECT 1", "BEGIN": the command, then the count if any.
    const parts = message.text.split(' ');
    const count = Number(parts[parts.length - 1]);
    this.answers.push({
      command: parts[0]!,
      rowCount: Number.isNaN(count) ? null : count,
      rows: this.rows,
    } as Answer);
    this.next();
  }

  handleEmptyQuery(): void {
    this.answers.push({ command: '', rowCount: null, rows: [] } as unknown as Answer);
    this.next();
  }

  private next(): void {
    const name = this.statements[this.at]?.name;
    if (name) this.parsing.delete(name);
    this.at++;
    this.rows = [];
    this.fields = [];
    this.parsers = [];
  }

  handleError(error: Error, connection: Connection): void {
    // The server skipped every message after the failure up to the Sync, those Parses included.
    for (const name of this.parsing) {
      if (connection.parsedStatements[name] === undefined) delete connection.submittedNamedStatements[name];
    }
    this.settle(error);
  }

  handleReadyForQuery(): void {
    this.settle(null);
  }

  handlePortalSuspended(): void {}

  handleCopyInResponse(): void {}

  handleCopyData(): void {}

  private settle(error: Error | null): void {
    if (this.settled) return;
    this.settled = true;
    this.done(error, this.answers);
  }
}

/**
 * Sends `statements` to `client` in one round trip and resolves with their answers, in order; rejects
 * with the first failure (and nothing after it ran). Every parameter is converted before anything is
 * sent, so a value node-postgres cannot send fails the pipeline before any statement of it runs.
 */
export function pipeline(client: PoolClient, statements: readonly PipelinedStatement[]): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    const values = statements.map((s) => (s.values ?? []).map((v) => pgUtils.prepareValue(v)));
    const query = new Pipeline(statements, values, (error, answers) =>
      error ? reject(error) : resolve(answers),
    );
    client.query(query as never);
  });
}
