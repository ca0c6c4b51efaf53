import { checkInputLimits } from './input-limits';
import type { AstNode } from './parse-query';
import type { SqlParser } from './sql-parser';
import { statementFacts, type ReferencedColumns, type StatementFacts } from './statement-facts';

/**
 * A statement's own UNION, INTERSECT or EXCEPT: its branches as statements of their own, and the
 * rule their column types (DuckDB's names, as preparing each tells them; null for a branch that does
 * not stand alone) must meet; `check` throws.
 */
export interface SetOperationCheck {
  branches: string[];
  check(types: readonly (readonly string[] | null)[]): void;
}

/**
 * Turns Postgres-flavoured SQL into the DuckDB SQL the engine runs, naming what it rewrote. Given the
 * names of its tables' JSON columns, it reads references to them as jsonb; `jsonbReferences` names
 * the references whose translation would then change.
 */
export type SqlTranslator = (
  sql: string,
  context?: { jsonColumns?: ReadonlySet<string> },
) => { sql: string; rewrites: string[]; setOperation?: SetOperationCheck; jsonbReferences?: string[] };

/** What a query's text alone determines: the same on every run, whatever the catalog holds. */
export interface QueryAnalysis {
  /** The text as translated to DuckDB SQL. */
  sql: string;
  /** Postgres-only syntax the translation rewrote (empty when the SQL ran as written). */
  rewrites: string[];
  ast: AstNode;
  /** Every table reference resolved against the CTEs in its scope, functions already checked. */
  facts: StatementFacts;
  /** `schema.table` names the query reads, CTEs excluded. */
  wantedTables: string[];
  timeTravel: boolean;
  columns: ReferencedColumns;
  /** The type check of the statement's own set operation, when it has one. */
  setOperation?: SetOperationCheck;
  /**
   * Names (lower case) of column references that read differently when they are JSON columns (a cast
   * to text, `->>`, `||`, `=`…): a statement whose tables have such a JSON column is analysed again
   * with them (see analyze).
   */
  jsonbReferences: readonly string[];
}

export interface AnalyzerOptions {
  /** Analyses kept per analyzer, least recently used dropped first. */
  capacity: number;
  /** Longer texts are analysed every time: their trees would crowd out the rest. */
  maxCachedLength: number;
}

/**
 * Translation and DuckDB's parse cost milliseconds a query, and dashboards send the same texts over
 * and over, so the analysis is kept per workspace and text. Per workspace, so that how fast a text
 * compiles never tells one tenant what another has run. A text is measured against the input limits
 * before anything else reads it, and its translation again, which may be longer.
 */
export class QueryAnalyzer {
  private readonly analyses = new Map<string, QueryAnalysis>();

  constructor(
    private readonly parser: SqlParser,
    private readonly translate: SqlTranslator,
    private readonly options: AnalyzerOptions = { capacity: 1_000, maxCachedLength: 16 * 1024 },
  ) {}

  /**
   * The statement's analysis; with `jsonColumns`, the names of JSON columns of its tables among its
   * jsonbReferences, one that reads them as jsonb, kept apart under those names: a column that
   * changes type changes the names, and so the analysis.
   */
  async analyze(workspaceId: string, userSql: string, jsonColumns?: ReadonlySet<string>): Promise<QueryAnalysis> {
    const typed = jsonColumns && jsonColumns.size > 0 ? jsonColumns : undefined;
    // A workspace id holds neither a tab nor a newline, and the names' JSON no newline: the two kinds of key never meet.
    const key = typed ? `${workspaceId}\t${JSON.stringify([...typed].sort())}\n${userSql}` : `${workspaceId}\n${userSql}`;
    const cached = this.analyses.get(key);
    if (cached) {
      this.analyses.delete(key);
      this.analyses.set(key, cached);
      return cached;
    }
    checkInputLimits(userSql);
    const { sql, rewrites, setOperation, jsonbReferences = [] } = this.translate(userSql, typed ? { jsonColumns: typed } : undefined);
    if (rewrites.length > 0) checkInputLimits(sql);
    const ast = await this.parser.parse(sql, rewrites.length > 0);
    const facts = statementFacts(ast);
    const analysis: QueryAnalysis = {
      sql,
      rewrites,
      ast,
      facts,
      wantedTables: facts.tables.map((table) => table.qualified),
      timeTravel: facts.timeTravel,
      columns: facts.columns,
      ...(setOperation ? { setOperation } : {}),
      jsonbReferences,
    };
    if (userSql.length <= this.options.maxCachedLength) this.remember(key, analysis);
    return analysis;
  }

  private remember(key: string, analysis: QueryAnalysis): void {
    this.analyses.set(key, analysis);
    if (this.analyses.size > this.options.capacity) this.analyses.delete(this.analyses.keys().next().value!);
  }
}
