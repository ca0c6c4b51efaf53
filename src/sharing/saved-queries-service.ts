import { AppError, RequestValidationError } from '../errors/app-error';
import type { QueryGate } from '../query/query-gate';
import type { QueryAnswer, QueryCaller, QueryService } from '../query/query-service';
import type { ResultFormat } from '../query/formats/encoded-result';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Page } from '../util/page';
import { bindValues, definitionIssues, type ParameterDefinition } from './parameters';
import { parameterizedSql } from './placeholders';
import { chartsReadingSavedQuery } from './chart-queries';
import { countSavedQueries, deleteSavedQuery, findSavedQuery, insertSavedQuery, listSavedQueries, type SavedQueryRow } from './saved-query-queries';

export interface SavedQueryInput {
  name: string;
  description?: string;
  sql: string;
  parameters?: ParameterDefinition[];
}

export interface SavedQueryView {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  sql: string;
  parameters: ParameterDefinition[];
  created_at: string;
  updated_at: string;
}

/** A saved query ready to run: its text with typed markers, and the values bound to them. */
export interface BoundQuery {
  sql: string;
  parameters: Record<string, string | number | bigint | boolean | null>;
}

/**
 * Saved queries of a workspace: SQL with `{{name}}` parameters of declared types. Saving one plans
 * it (its SQL must compile and read the workspace's tables); running one binds each value to its
 * marker, checked against its type, and answers like a query.
 */
export class SavedQueriesService {
  constructor(
    private readonly store: Store,
    private readonly gate: QueryGate,
    private readonly queries: QueryService,
    private readonly clock: Clock,
  ) {}

  async create(workspaceId: string, userId: string | null, input: SavedQueryInput): Promise<SavedQueryView> {
    const parameters = input.parameters ?? [];
    const issues = definitionIssues(parameters, ['body', 'parameters']);
    if (issues.length > 0) throw new RequestValidationError(issues);
    const parameterized = parameterizedSql(input.sql, parameters, { sql: ['body', 'sql'], parameters: ['body', 'parameters'] });
    await this.gate.describe(workspaceId, parameterized.sql, parameterized.names);
    const row = {
      id: Bun.randomUUIDv7(),
      workspace_id: workspaceId,
      name: input.name,
      description: input.description ?? null,
      sql: input.sql,
      parameters: JSON.stringify(parameters),
    };
    const now = this.clock.now().toISOString();
    await this.store.transaction(async (tx) => {
      await tx.lock(`saved-query:${workspaceId}:${input.name}`);
      if (await tx.first(findSavedQuery, { workspace_id: workspaceId, name: input.name })) {
        throw new AppError('CONFLICT', `A saved query named "${input.name}" exists already`, {
          hint: 'Choose another name, or delete the existing one first.',
        });
      }
      await tx.run(insertSavedQuery, { ...row, created_by: userId, now });
    });
    return viewOf({ ...row, created_at: now, updated_at: now });
  }

  async list(workspaceId: string, page: Page): Promise<{ items: SavedQueryView[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.store.all(listSavedQueries, { workspace_id: workspaceId, ...page }),
      this.store.first(countSavedQueries, { workspace_id: workspaceId }),
    ]);
    return { items: rows.map(viewOf), total: Number(count?.total ?? 0) };
  }

  async get(workspaceId: string, name: string): Promise<SavedQueryView> {
    return viewOf(await this.find(workspaceId, name));
  }

  /** A saved query that charts read cannot go: 409 naming them. */
  async delete(workspaceId: string, name: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      await tx.lock(`saved-query:${workspaceId}:${name}`);
      const row = await tx.first(findSavedQuery, { workspace_id: workspaceId, name });
      if (!row) throw notFound(name);
      const readers = await tx.all(chartsReadingSavedQuery, { workspace_id: workspaceId, saved_query: name });
      if (readers.length > 0) {
        throw new AppError('CONFLICT', `Charts read the saved query "${name}": ${readers.map((chart) => chart.name).join(', ')}`, {
          hint: 'Delete those charts or point them at other SQL first.',
        });
      }
      await tx.run(deleteSavedQuery, { id: row.id });
    });
  }

  /** Runs it with the given values (defaults for the others) through the query gate, answered in the asked format. */
  async run(caller: QueryCaller, workspaceId: string, name: string, given: Record<string, unknown>, format: ResultFormat): Promise<QueryAnswer> {
    const bound = await this.bind(workspaceId, name, given);
    return this.queries.answer(caller, { workspaceId, sql: bound.sql, parameters: bound.parameters, format, estimateOnly: false, force: false });
  }

  /** The saved query's text with typed markers, and its values checked (422 at `at`, by parameter name). */
  async bind(workspaceId: string, name: string, given: Record<string, unknown>, at: (string | number)[] = ['body', 'parameters']): Promise<BoundQuery> {
    const view = viewOf(await this.find(workspaceId, name));
    return bindSaved(view, given, at);
  }

  async find(workspaceId: string, name: string): Promise<SavedQueryRow> {
    const row = await this.store.first(findSavedQuery, { workspace_id: workspaceId, name });
    if (!row) throw notFound(name);
    return row;
  }
}

export function bindSaved(view: Pick<SavedQueryView, 'sql' | 'parameters'>, given: Record<string, unknown>, at: (string | number)[]): BoundQuery {
  const { values, issues } = bindValues(view.parameters, given, at);
  if (issues.length > 0) throw new RequestValidationError(issues);
  const { sql } = parameterizedSql(view.sql, view.parameters, { sql: ['sql'], parameters: ['parameters'] });
  return { sql, parameters: values };
}

export function viewOf(row: SavedQueryRow): SavedQueryView {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    name: row.name,
    description: row.description,
    sql: row.sql,
    parameters: JSON.parse(row.parameters) as ParameterDefinition[],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function notFound(name: string): AppError {
  return new AppError('NOT_FOUND', `No saved query named "${name}"`);
}
