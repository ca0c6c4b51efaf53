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
export function checkQuery(facts: StatementFacts, tables: KnownTables): LakeTableRef[] {
  return facts.tables.map((reference) => checkTableRef(reference, tables));
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
