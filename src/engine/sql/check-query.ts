import { AppError } from '../../errors/app-error';
import { lakeAlias } from '../catalog-names';
import { closestName } from './closest-name';
import { withoutServerDetails } from './map-duckdb-error';
import type { KnownTables } from './known-tables';
import type { StatementFacts, TableReference } from './statement-facts';

export interface LakeTableRef {
  schema: string;
  table: string;
  /** Time travel: the `AT (…)` clause made the reference historical. */
  historical: boolean;
}

/**
 * Lets the query through only if every table reference that reads no CTE names one of the
 * workspace's own lake tables: never a system view, a catalog, a table function's name or a file,
 * whatever the statement's form (a query, DESCRIBE, SUMMARIZE, PIVOT, time travel). Functions and
 * catalog listings were held against the policy when the statement was analysed. Returns the lake
 * tables the query reads.
 */
export function checkQuery(facts: StatementFacts, tables: KnownTables, parameters: ReadonlySet<string> = noParameters): LakeTableRef[] {
  checkParameters(facts, parameters);
  return facts.tables.map((reference) => checkTableRef(reference, tables));
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

function checkTableRef(reference: TableReference, tables: KnownTables): LakeTableRef {
  const { catalog, schema, table, qualified, historical } = reference;
  const known = historical ? tables.ever : tables.live;
  if ((catalog && catalog !== lakeAlias) || !known.has(qualified)) {
    // A file path written as a table name is not echoed: the message must never read as a server path.
    const shown = withoutServerDetails([catalog, schema, table].filter(Boolean).join('.'));
    const suggestion = closestName(qualified, [...tables.live]);
    throw new AppError('UNDEFINED_TABLE', `Table "${shown}" does not exist`, {
      hint: suggestion ? `Did you mean "${suggestion.replace(/^main\./, '')}"?` : undefined,
      advice: suggestion ? undefined : 'list-tables',
    });
  }
  return { schema: schema || 'main', table, historical };
}
