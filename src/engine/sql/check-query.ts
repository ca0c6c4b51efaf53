import { AppError } from '../../errors/app-error';
import { lakeAlias } from '../catalog-names';
import { noLiveTables, type AttachedTable, type LiveTables } from '../live/live-sources';
import { closestName } from './closest-name';
import { withoutServerDetails } from './map-duckdb-error';
import type { KnownTables } from './known-tables';
import type { StatementFacts, TableReference } from './statement-facts';

export interface LakeTableRef {
  schema: string;
  table: string;
  /** Time travel: the `AT (…)` clause made the reference historical. */
  historical: boolean;
  /** A live connection's table, read in place from its attached source rather than from the lake. */
  attached?: AttachedTable;
}

/**
 * Lets the query through only if every table reference that reads no CTE names one of the
 * workspace's own lake tables: never a system view, a catalog, a table function's name or a file,
 * whatever the statement's form (a query, DESCRIBE, SUMMARIZE, PIVOT, time travel). Functions and
 * catalog listings were held against the policy when the statement was analysed. Returns the lake
 * tables the query reads.
 */
export function checkQuery(
  facts: StatementFacts,
  tables: KnownTables,
  live: LiveTables = noLiveTables,
  parameters: ReadonlySet<string> = noParameters,
): LakeTableRef[] {
  checkParameters(facts, parameters);
  return facts.tables.map((reference) => checkTableRef(reference, tables, live));
}

const noParameters: ReadonlySet<string> = new Set();

/**
 * A parameter marker is a value the statement leaves open. Only the markers the caller binds may be
 * in it (a saved query's `{{name}}` placeholders, each bound to a value of its declared type); any
 * other one (`$1`, `?`, `$name` written into a query) is refused before anything runs.
 */
function checkParameters(facts: StatementFacts, parameters: ReadonlySet<string>): void {
  const unbound = [...facts.parameters].filter((name) => !parameters.has(name));
  if (unbound.length === 0) return;
  throw new AppError('STATEMENT_NOT_ALLOWED', 'Parameter markers ($1, ?, $name) are not available in a query', {
    hint: 'Write the value into the query, or save it as a saved query with {{name}} parameters and run that.',
  });
}

/**
 * A live connection's table is named `<connection>.<table>` and nothing else: never with a catalog,
 * never another schema or a system view of its source, never under time travel (the source keeps no
 * snapshots).
 */
function checkTableRef(reference: TableReference, tables: KnownTables, live: LiveTables): LakeTableRef {
  const { catalog, schema, table, qualified, historical } = reference;
  const attached = catalog ? undefined : live.tables.get(qualified);
  if (attached) {
    if (historical)
      throw new AppError('STATEMENT_NOT_ALLOWED', `${schema}.${table} is read live from its source, which keeps no history`, {
        hint: 'Time travel reads synced tables only.',
      });
    return { schema, table, historical, attached };
  }
  const unavailable = catalog ? undefined : live.unavailable.get(schema);
  if (unavailable)
    throw new AppError('UNDEFINED_TABLE', `Table "${schema}.${table}" cannot be read: the live connection ${schema} ${unavailable}`, {
      hint: 'Test the connection; the workspace tries its source again within seconds.',
    });
  const known = historical ? tables.ever : tables.live;
  if ((catalog && catalog !== lakeAlias) || !known.has(qualified)) {
    // A file path written as a table name is not echoed: the message must never read as a server path.
    const shown = withoutServerDetails([catalog, schema, table].filter(Boolean).join('.'));
    const suggestion = closestName(qualified, [...tables.live]);
    throw new AppError('UNDEFINED_TABLE', `Table "${shown}" does not exist`, {
      hint: suggestion ? `Did you mean "${suggestion.replace(/^main\./, '')}"?` : undefined,
      advice: suggestion ? undefined : 'list-tables',
      sqlstate: '42P01',
    });
  }
  return { schema: schema || 'main', table, historical };
}
