import { AppError, RequestValidationError } from '../errors/app-error';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { Page } from '../util/page';
import { findChart } from './chart-queries';
import { chartNamesOf, blocksOf, type PageBlock } from './page-blocks';
import { countPages, deletePage, findPage, insertPage, listPages, updatePage, type PageRow } from './page-queries';
import type { PublishAnswer, PublishedState, Publisher } from './publishing';

export interface PageInput {
  name: string;
  title: string;
  description?: string | null;
  /** The page's charts in order; with `blocks`, they must be the blocks' charts in the same order. */
  charts?: string[];
  blocks?: PageBlock[];
}

export type PagePatch = Partial<Omit<PageInput, 'name'>>;

export interface PageView {
  id: string;
  workspace_id: string;
  name: string;
  title: string;
  description: string | null;
  charts: string[];
  blocks: PageBlock[];
  created_at: string;
  updated_at: string;
  published: PublishedState | null;
}

/** Pages (dashboards) of a workspace: charts and markdown blocks in order, each chart named and existing. */
export class PagesService {
  constructor(
    private readonly store: Store,
    private readonly publisher: Publisher,
    private readonly clock: Clock,
  ) {}

  async create(workspaceId: string, userId: string | null, input: PageInput): Promise<PageView> {
    const blocks = await this.checkedBlocks(workspaceId, input.charts, input.blocks);
    const row = {
      id: Bun.randomUUIDv7(),
      workspace_id: workspaceId,
      name: input.name,
      title: input.title,
      description: input.description ?? null,
      blocks: JSON.stringify(blocks),
    };
    const now = this.clock.now().toISOString();
    await this.store.transaction(async (tx) => {
      await tx.lock(`page:${workspaceId}:${input.name}`);
      if (await tx.first(findPage, { workspace_id: workspaceId, name: input.name })) {
        throw new AppError('CONFLICT', `A page named "${input.name}" exists already`, { hint: 'Choose another name, or change the existing page.' });
      }
      await tx.run(insertPage, { ...row, created_by: userId, now });
    });
    return this.view({ ...row, created_at: now, updated_at: now });
  }

  async update(workspaceId: string, name: string, patch: PagePatch): Promise<PageView> {
    const current = await this.find(workspaceId, name);
    const layoutChanged = patch.charts !== undefined || patch.blocks !== undefined;
    const blocks = layoutChanged ? await this.checkedBlocks(workspaceId, patch.charts, patch.blocks) : blocksOf(current.blocks);
    const row = {
      id: current.id,
      workspace_id: workspaceId,
      name,
      title: patch.title ?? current.title,
      description: patch.description === undefined ? current.description : patch.description,
      blocks: JSON.stringify(blocks),
    };
    const now = this.clock.now().toISOString();
    if ((await this.store.run(updatePage, { ...row, now })) === 0) throw notFound(name);
    return this.view({ ...row, created_at: current.created_at, updated_at: now });
  }

  async list(workspaceId: string, page: Page): Promise<{ items: PageView[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.store.all(listPages, { workspace_id: workspaceId, ...page }),
      this.store.first(countPages, { workspace_id: workspaceId }),
    ]);
    return { items: await Promise.all(rows.map((row) => this.view(row))), total: Number(count?.total ?? 0) };
  }

  async get(workspaceId: string, name: string): Promise<PageView> {
    return this.view(await this.find(workspaceId, name));
  }

  async delete(workspaceId: string, name: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      const row = await tx.first(findPage, { workspace_id: workspaceId, name });
      if (!row) throw notFound(name);
      await this.publisher.unpublish(tx, 'page', row.id);
      await tx.run(deletePage, { id: row.id });
    });
  }

  /** Locked values apply to every chart of the page whose saved query declares them; they are checked when the page is shown. */
  async publish(workspaceId: string, name: string, options: { expiresAt?: string; parameters: Record<string, unknown> }): Promise<PublishAnswer> {
    const row = await this.find(workspaceId, name);
    return this.publisher.publish(this.store, { workspaceId, kind: 'page', objectId: row.id }, options);
  }

  async unpublish(workspaceId: string, name: string): Promise<void> {
    const row = await this.find(workspaceId, name);
    await this.publisher.unpublish(this.store, 'page', row.id);
  }

  async find(workspaceId: string, name: string): Promise<PageRow> {
    const row = await this.store.first(findPage, { workspace_id: workspaceId, name });
    if (!row) throw notFound(name);
    return row;
  }

  /** The layout: the blocks as given (their charts must match `charts` when both are given), or one block per chart. */
  private async checkedBlocks(workspaceId: string, charts: string[] | undefined, blocks: PageBlock[] | undefined): Promise<PageBlock[]> {
    if (charts === undefined && blocks === undefined)
      throw RequestValidationError.at(['body', 'charts'], 'A page lists its charts, its blocks, or both', 'missing');
    const layout = blocks ?? (charts ?? []).map((chart) => ({ chart }));
    const names = chartNamesOf(layout);
    if (charts !== undefined && blocks !== undefined && (charts.length !== names.length || charts.some((chart, index) => chart !== names[index]))) {
      throw RequestValidationError.at(['body', 'charts'], 'charts must be the charts of blocks, in the same order (or leave one of them out)', 'value_error');
    }
    for (const chart of new Set(names)) {
      if (!(await this.store.first(findChart, { workspace_id: workspaceId, name: chart })))
        throw new AppError('NOT_FOUND', `No chart named "${chart}"`, { hint: 'Create the chart before adding it to a page.' });
    }
    return layout;
  }

  private async view(row: Omit<PageRow, never>): Promise<PageView> {
    const blocks = blocksOf(row.blocks);
    return {
      id: row.id,
      workspace_id: row.workspace_id,
      name: row.name,
      title: row.title,
      description: row.description,
      charts: chartNamesOf(blocks),
      blocks,
      created_at: row.created_at,
      updated_at: row.updated_at,
      published: await this.publisher.state('page', row.id),
    };
  }
}

function notFound(name: string): AppError {
  return new AppError('NOT_FOUND', `No page named "${name}"`);
}
