import { AppError, RequestValidationError } from '../errors/app-error';
import type { QueryGate } from '../query/query-gate';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Page } from '../util/page';
import { chartConfigIssues, type ChartConfig, type ChartType } from './chart-config';
import { countCharts, deleteChart, findChart, insertChart, listCharts, updateChart, type ChartRow } from './chart-queries';
import { listPageBlocks } from './page-queries';
import { givenValueIssues, type ParameterDefinition, type ParameterValue } from './parameters';
import { hasPlaceholders, parameterizedSql } from './placeholders';
import type { PublishAnswer, PublishedState, Publisher } from './publishing';
import { viewOf as savedQueryView, type SavedQueriesService } from './saved-queries-service';
import { blocksOf } from './page-blocks';

export interface ChartInput {
  name: string;
  title: string;
  description?: string | null;
  sql?: string | null;
  saved_query?: string | null;
  parameters?: Record<string, ParameterValue | null>;
  chart_type: ChartType;
  config: ChartConfig;
}

export type ChartPatch = Partial<Omit<ChartInput, 'name'>>;

/** A chart as the API shows it: its stored fields with parameters and config read, and its publication. */
export type ChartView = Omit<ChartRow, 'parameters' | 'chart_type' | 'config'> & {
  parameters: Record<string, ParameterValue | null>;
  chart_type: ChartType;
  config: ChartConfig;
  published: PublishedState | null;
};

/** What a chart's query is: its text with typed markers, and the saved query's declarations (none for SQL of its own). */
export interface ChartQuery {
  sql: string;
  definitions: ParameterDefinition[];
}

/**
 * Charts of a workspace: a query (SQL of its own or a saved query) and how to draw its result. Saving
 * one plans its query, without running it, for the result's columns: the config must name columns
 * the result has. A chart that a page shows cannot be deleted.
 */
export class ChartsService {
  constructor(
    private readonly store: Store,
    private readonly gate: QueryGate,
    private readonly savedQueries: SavedQueriesService,
    private readonly publisher: Publisher,
    private readonly clock: Clock,
  ) {}

  async create(workspaceId: string, userId: string | null, input: ChartInput): Promise<ChartView> {
    const row = await this.checked(workspaceId, { id: Bun.randomUUIDv7(), ...input });
    const now = this.clock.now().toISOString();
    await this.store.transaction(async (tx) => {
      await tx.lock(`chart:${workspaceId}:${input.name}`);
      if (await tx.first(findChart, { workspace_id: workspaceId, name: input.name })) {
        throw new AppError('CONFLICT', `A chart named "${input.name}" exists already`, { hint: 'Choose another name, or change the existing chart.' });
      }
      await tx.run(insertChart, { ...row, created_by: userId, now });
    });
    return this.view({ ...row, created_at: now, updated_at: now });
  }

  /** Fields not given keep their values; giving `sql` replaces a saved query and the other way round. */
  async update(workspaceId: string, name: string, patch: ChartPatch): Promise<ChartView> {
    const current = chartInputOf(await this.find(workspaceId, name));
    const source = patch.sql != null || patch.saved_query != null ? { sql: patch.sql ?? null, saved_query: patch.saved_query ?? null } : {};
    const merged: ChartInput & { id: string } = { ...current, ...withoutUndefined(patch), ...source, name, id: current.id };
    const row = await this.checked(workspaceId, merged);
    const now = this.clock.now().toISOString();
    const changed = await this.store.run(updateChart, { ...row, now });
    if (changed === 0) throw notFound(name);
    return this.view({ ...row, created_at: current.created_at, updated_at: now });
  }

  async list(workspaceId: string, page: Page): Promise<{ items: ChartView[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.store.all(listCharts, { workspace_id: workspaceId, ...page }),
      this.store.first(countCharts, { workspace_id: workspaceId }),
    ]);
    return { items: await Promise.all(rows.map((row) => this.view(row))), total: Number(count?.total ?? 0) };
  }

  async get(workspaceId: string, name: string): Promise<ChartView> {
    return this.view(await this.find(workspaceId, name));
  }

  async delete(workspaceId: string, name: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      await tx.lock(`chart:${workspaceId}:${name}`);
      const row = await tx.first(findChart, { workspace_id: workspaceId, name });
      if (!row) throw notFound(name);
      const pages = (await tx.all(listPageBlocks, { workspace_id: workspaceId })).filter((page) =>
        blocksOf(page.blocks).some((block) => 'chart' in block && block.chart === name),
      );
      if (pages.length > 0) {
        throw new AppError('CONFLICT', `Pages show the chart "${name}": ${pages.map((page) => page.name).join(', ')}`, {
          hint: 'Remove it from those pages first.',
        });
      }
      await this.publisher.unpublish(tx, 'chart', row.id);
      await tx.run(deleteChart, { id: row.id });
    });
  }

  /** Publishes (or republishes, with a new token) the chart; locked values must fit the saved query's parameters. */
  async publish(workspaceId: string, name: string, options: { expiresAt?: string; parameters: Record<string, unknown> }): Promise<PublishAnswer> {
    const row = await this.find(workspaceId, name);
    const { definitions } = await this.query(row);
    const issues = givenValueIssues(definitions, options.parameters, ['body', 'parameters']);
    if (issues.length > 0) throw new RequestValidationError(issues);
    return this.publisher.publish(this.store, { workspaceId, kind: 'chart', objectId: row.id }, options);
  }

  async unpublish(workspaceId: string, name: string): Promise<void> {
    const row = await this.find(workspaceId, name);
    await this.publisher.unpublish(this.store, 'chart', row.id);
  }

  async find(workspaceId: string, name: string): Promise<ChartRow> {
    const row = await this.store.first(findChart, { workspace_id: workspaceId, name });
    if (!row) throw notFound(name);
    return row;
  }

  /** The chart's query as it runs now (a saved query is read as it is today). */
  async query(row: Pick<ChartRow, 'workspace_id' | 'sql' | 'saved_query'>): Promise<ChartQuery> {
    if (row.sql !== null) return { sql: row.sql, definitions: [] };
    const saved = savedQueryView(await this.savedQueries.find(row.workspace_id, row.saved_query!));
    return { sql: parameterizedSql(saved.sql, saved.parameters, { sql: ['sql'], parameters: ['parameters'] }).sql, definitions: saved.parameters };
  }

  /** Checks the input (one source, parameters that fit, a config that fits the result's columns) and gives the row to store. */
  private async checked(workspaceId: string, input: ChartInput & { id: string }): Promise<Omit<ChartRow, 'created_at' | 'updated_at'>> {
    const hasSql = input.sql != null;
    const hasSaved = input.saved_query != null;
    if (hasSql === hasSaved)
      throw RequestValidationError.at(
        ['body', hasSql ? 'saved_query' : 'sql'],
        'A chart reads either sql or a saved_query, exactly one of them',
        'value_error',
      );
    if (hasSql && hasPlaceholders(input.sql!)) {
      throw RequestValidationError.at(
        ['body', 'sql'],
        'A chart’s own SQL takes no parameters: save the query with its parameters and chart the saved query',
        'value_error',
      );
    }
    const parameters = input.parameters ?? {};
    let query: ChartQuery;
    try {
      query = await this.query({ workspace_id: workspaceId, sql: input.sql ?? null, saved_query: input.saved_query ?? null });
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND')
        throw new AppError('NOT_FOUND', error.message, { hint: 'Create the saved query first, or give the chart SQL of its own.' });
      throw error;
    }
    const valueIssues = givenValueIssues(query.definitions, parameters, ['body', 'parameters']);
    if (valueIssues.length > 0) throw new RequestValidationError(valueIssues);
    const columns = await this.gate.describe(
      workspaceId,
      query.sql,
      query.definitions.map((definition) => definition.name),
    );
    const configIssues = chartConfigIssues(input.chart_type, input.config, columns);
    if (configIssues.length > 0) throw new RequestValidationError(configIssues);
    return {
      id: input.id,
      workspace_id: workspaceId,
      name: input.name,
      title: input.title,
      description: input.description ?? null,
      sql: input.sql ?? null,
      saved_query: input.saved_query ?? null,
      parameters: JSON.stringify(parameters),
      chart_type: input.chart_type,
      config: JSON.stringify(withoutUndefined(input.config)),
    };
  }

  private async view(row: ChartRow): Promise<ChartView> {
    return { ...chartInputOf(row), published: await this.publisher.state('chart', row.id) };
  }
}

export function chartInputOf(row: ChartRow): Omit<ChartView, 'published'> {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    name: row.name,
    title: row.title,
    description: row.description,
    sql: row.sql,
    saved_query: row.saved_query,
    parameters: JSON.parse(row.parameters) as Record<string, ParameterValue | null>,
    chart_type: row.chart_type as ChartType,
    config: JSON.parse(row.config) as ChartConfig,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

function notFound(name: string): AppError {
  return new AppError('NOT_FOUND', `No chart named "${name}"`);
}
