import { AppError, RequestValidationError } from '../errors/app-error';
import { parseTableName, qualifiedName } from '../engine/write/table-name';
import { InvalidTableName } from '../engine/write/write-errors';
import type { QueryGate } from '../query/query-gate';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Staleness } from './staleness';
import { TransformGraph } from './transform-graph';
import {
  deleteTransform,
  insertTransform,
  latestRuns,
  updateTransform,
  type Materialization,
  type RunRow,
  type RunStatus,
  type TransformRow,
} from './transform-queries';
import {
  graphNodeOf,
  loadTransforms,
  transformView,
  withDeps,
  type TransformView,
  type TransformWithDepsView,
  type WorkspaceTransforms,
} from './transform-view';

export interface TransformInput {
  name: string;
  sql: string;
  target_table: string;
  depends_on?: string[];
  materialization?: Materialization;
  unique_key?: string | string[] | null;
  description?: string | null;
}

export interface DagView {
  nodes: { id: string; name: string; target_table: string; materialization: Materialization; last_run_status: RunStatus | null; stale: boolean }[];
  edges: { from: string; to: string }[];
  order: string[];
}

/**
 * Transforms: their definitions, checked at every create and change (the SQL by the query pipeline,
 * every table it reads existing or written by another transform, no cycle), and the graph they make.
 */
export class TransformsService {
  constructor(
    private readonly store: Store,
    /** Checks a transform's SQL as the gate checks every statement, on the plan's statements at once. */
    private readonly gate: Pick<QueryGate, 'checkMaterialization'>,
    private readonly staleness: Staleness,
    private readonly clock: Clock,
  ) {}

  async create(workspaceId: string, input: TransformInput): Promise<TransformView> {
    const row = await this.checked(workspaceId, Bun.randomUUIDv7(), input, undefined);
    await this.store.transaction(async (tx) => {
      await tx.lock(`transforms:${workspaceId}`);
      this.assertFits(await loadTransforms(tx, workspaceId), row);
      await tx.run(insertTransform, { ...row, now: this.clock.now().toISOString() });
    });
    return this.get(workspaceId, row.id);
  }

  async update(workspaceId: string, id: string, patch: Partial<TransformInput>): Promise<TransformView> {
    const current = (await loadTransforms(this.store, workspaceId)).byId.get(id);
    if (!current) throw notFound();
    const materialization = patch.materialization ?? current.materialization;
    const merged: TransformInput = {
      name: patch.name ?? current.name,
      sql: patch.sql ?? current.sql,
      target_table: patch.target_table ?? current.target_table,
      depends_on: patch.depends_on ?? (JSON.parse(current.depends_on) as string[]),
      materialization,
      // A key stays with an incremental transform; changing to another materialisation lets it go.
      unique_key:
        patch.unique_key !== undefined
          ? patch.unique_key
          : materialization !== 'incremental' || current.unique_key === null
            ? null
            : (JSON.parse(current.unique_key) as string[]),
      description: patch.description !== undefined ? patch.description : current.description,
    };
    const row = await this.checked(workspaceId, id, merged, current);
    await this.store.transaction(async (tx) => {
      await tx.lock(`transforms:${workspaceId}`);
      const transforms = await loadTransforms(tx, workspaceId);
      if (!transforms.byId.has(id)) throw notFound();
      this.assertFits(transforms, row);
      await tx.run(updateTransform, { ...row, now: this.clock.now().toISOString() });
    });
    return this.get(workspaceId, id);
  }

  /** Refused (409) while other transforms depend on it, unless `cascade` deletes them too. */
  async delete(workspaceId: string, id: string, cascade: boolean): Promise<void> {
    await this.store.transaction(async (tx) => {
      await tx.lock(`transforms:${workspaceId}`);
      const { graph, byId } = await loadTransforms(tx, workspaceId);
      if (!byId.has(id)) throw notFound();
      const doomed = graph.withDownstream([id]);
      const dependents = [...doomed].filter((other) => other !== id).map((other) => byId.get(other)!.name);
      if (dependents.length > 0 && !cascade) {
        throw new AppError('CONFLICT', `Other transforms depend on ${byId.get(id)!.name}`, {
          hint: `Its dependents: ${dependents.join(', ')}. Delete with ?cascade=true to delete them too.`,
        });
      }
      for (const other of doomed) await tx.run(deleteTransform, { id: other, workspace_id: workspaceId });
    });
  }

  async get(workspaceId: string, id: string): Promise<TransformWithDepsView> {
    const transforms = await loadTransforms(this.store, workspaceId);
    const row = transforms.byId.get(id);
    if (!row) throw notFound();
    const last = await this.lastRuns(workspaceId);
    return withDeps(transformView(row, last.get(id)), transforms.graph);
  }

  async list(workspaceId: string, page: { limit: number; offset: number }): Promise<{ items: TransformWithDepsView[]; total: number }> {
    const transforms = await loadTransforms(this.store, workspaceId);
    const last = await this.lastRuns(workspaceId);
    const items = transforms.rows.slice(page.offset, page.offset + page.limit).map((row) => withDeps(transformView(row, last.get(row.id)), transforms.graph));
    return { items, total: transforms.rows.length };
  }

  async dag(workspaceId: string): Promise<DagView> {
    const transforms = await loadTransforms(this.store, workspaceId);
    const [last, stale] = await Promise.all([this.lastRuns(workspaceId), this.staleness.staleIds(workspaceId, transforms)]);
    return {
      nodes: transforms.rows.map((row) => ({
        id: row.id,
        name: row.name,
        target_table: row.target_table,
        materialization: row.materialization,
        last_run_status: last.get(row.id)?.status ?? null,
        stale: stale.has(row.id),
      })),
      edges: transforms.graph.edges(),
      order: transforms.graph.order(),
    };
  }

  private async lastRuns(workspaceId: string): Promise<Map<string, RunRow>> {
    return new Map((await this.store.all(latestRuns, { workspace_id: workspaceId })).map((run) => [run.transform_id, run]));
  }

  /** The row a create or change would write, with its SQL checked against the workspace's tables and the other transforms' targets. */
  private async checked(
    workspaceId: string,
    id: string,
    input: TransformInput,
    current: TransformRow | undefined,
  ): Promise<Omit<TransformRow, 'created_at' | 'updated_at'>> {
    const target = targetOf(input.target_table);
    const materialization = input.materialization ?? 'table';
    const uniqueKey = uniqueKeyOf(input.unique_key, materialization);
    const transforms = await loadTransforms(this.store, workspaceId);
    const unknown = (input.depends_on ?? []).filter((dependency) => !transforms.byId.has(dependency));
    if (unknown.length > 0) throw new AppError('NOT_FOUND', `depends_on names no transform of this workspace: ${unknown.join(', ')}`);
    // Its own target counts too: a transform reading it is refused below as a cycle, which says more.
    const pending = new Set([...transforms.rows.filter((row) => row.id !== current?.id).map((row) => row.target_table), target]);
    const reads = await this.gate.checkMaterialization(workspaceId, input.sql, pending);
    return {
      id,
      workspace_id: workspaceId,
      name: input.name,
      description: input.description ?? null,
      sql: input.sql,
      target_table: target,
      materialization,
      unique_key: uniqueKey === null ? null : JSON.stringify(uniqueKey),
      depends_on: JSON.stringify([...new Set(input.depends_on ?? [])]),
      reads: JSON.stringify(reads),
    };
  }

  /** Names and targets are unique in a workspace, and the graph stays acyclic. */
  private assertFits(transforms: WorkspaceTransforms, row: Omit<TransformRow, 'created_at' | 'updated_at'>): void {
    const others = transforms.rows.filter((other) => other.id !== row.id);
    if (others.some((other) => other.name === row.name)) throw new AppError('CONFLICT', `A transform named ${row.name} exists already`);
    const writer = others.find((other) => other.target_table === row.target_table);
    if (writer)
      throw new AppError('CONFLICT', `The transform ${writer.name} writes ${row.target_table} already`, { hint: 'Each transform writes a table of its own.' });
    if ((JSON.parse(row.reads) as string[]).includes(row.target_table)) {
      throw new AppError('DAG_CYCLE', `The transform reads its own target ${row.target_table}`, { hint: `${row.name} → ${row.name}` });
    }
    const graph = new TransformGraph([...others.map(graphNodeOf), graphNodeOf(row)]);
    const cycle = graph.findCycle();
    if (cycle)
      throw new AppError('DAG_CYCLE', 'The transform would make the dependencies circular', { hint: `${cycle.join(' → ')} (each depends on the next)` });
  }
}

function targetOf(text: string): string {
  try {
    return qualifiedName(parseTableName(text));
  } catch (error) {
    if (error instanceof InvalidTableName) throw RequestValidationError.at(['body', 'target_table'], error.message);
    throw error;
  }
}

function uniqueKeyOf(value: string | string[] | null | undefined, materialization: Materialization): string[] | null {
  const key = value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];
  if (materialization !== 'incremental') {
    if (key.length > 0) throw RequestValidationError.at(['body', 'unique_key'], 'unique_key applies to incremental transforms only');
    return null;
  }
  if (key.length === 0) throw RequestValidationError.at(['body', 'unique_key'], 'An incremental transform needs a unique_key to merge on', 'missing');
  if (new Set(key).size !== key.length) throw RequestValidationError.at(['body', 'unique_key'], 'unique_key columns must be distinct');
  return key;
}

function notFound(): AppError {
  return new AppError('NOT_FOUND', 'No such transform');
}
