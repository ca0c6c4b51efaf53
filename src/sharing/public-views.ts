import { AppError } from '../errors/app-error';
import { setBounded } from '../util/bounded-map';
import type { Store } from '../store/store';
import type { Logger } from '../logging/logger';
import type { ChartConfig, ChartType } from './chart-config';
import { findChart, type ChartRow } from './chart-queries';
import type { ChartResult, ChartResults } from './chart-results';
import type { ChartsService } from './charts-service';
import { blocksOf } from './page-blocks';
import { findPageById } from './page-queries';
import type { PublicationRow } from './publication-queries';
import type { ChartPublication, Publisher } from './publishing';
import type { ViewLimits } from './public-throttle';
import { bindValues } from './parameters';
import type { BoundQuery } from './saved-queries-service';

/** What a public view may show of a chart: no SQL, no workspace, no names beyond its title and columns. */
export interface PublicChart {
  title: string;
  description: string | null;
  chartType: ChartType;
  config: ChartConfig;
  result: ChartResult;
}

export type PublicBlock = { kind: 'markdown'; text: string } | { kind: 'chart'; chart: PublicChart } | { kind: 'unavailable'; title: string | null };

export interface PublicPage {
  title: string;
  description: string | null;
  blocks: PublicBlock[];
}

/**
 * What public links show. Each view is counted against its client address and its link first (429
 * beyond; see ViewLimits), then the token is looked up by its digest (404 for every token that does not open a live
 * link); the chart's data comes from the per-snapshot cache. Locked values of the link override the
 * chart's own parameter values, which override the saved query's defaults.
 */
export class PublicViews {
  private readonly shown: ShownCharts;
  /** Own-SQL charts' bound queries, by chart id, with what they were bound from. */
  private readonly bound = new Map<string, { sql: string; parameters: string; locked: string; query: BoundQuery }>();

  constructor(
    private readonly store: Store,
    private readonly publisher: Publisher,
    private readonly charts: ChartsService,
    private readonly results: ChartResults,
    private readonly limits: ViewLimits,
    private readonly logger: Logger,
    private readonly capacity: number,
  ) {
    this.shown = new ShownCharts(capacity);
  }

  /**
   * A chart's link, counted against the viewer's address and the link first (unless another replica
   * counted the view already and handed it on). The link and its chart come from a read made after
   * the view arrived: an unpublished or replaced link is a 404 on the next view.
   */
  async openChart(token: string, address: string | undefined, counted = false): Promise<ChartPublication> {
    if (!counted) await this.take('chart', token, address);
    return this.publisher.openChart(token);
  }

  showChart(link: ChartPublication): Promise<PublicChart> {
    return this.publicChart(link.chart, link.lockedParameters);
  }

  /** A page's link (counted as openChart's); its workspace is the owner of everything it shows. */
  async openPage(token: string, address: string | undefined, counted = false): Promise<PublicationRow> {
    if (!counted) await this.take('page', token, address);
    return this.publisher.open('page', token);
  }

  async showPage(publication: PublicationRow): Promise<PublicPage> {
    const page = await this.store.first(findPageById, { id: publication.object_id });
    if (!page) throw new AppError('NOT_FOUND', 'This link does not exist, was withdrawn or has expired');
    const blocks = await Promise.all(
      blocksOf(page.blocks).map(async (block): Promise<PublicBlock> => {
        if ('markdown' in block) return { kind: 'markdown', text: block.markdown };
        const row = await this.store.first(findChart, { workspace_id: page.workspace_id, name: block.chart });
        if (!row) return { kind: 'unavailable', title: null };
        try {
          return { kind: 'chart', chart: await this.publicChart(row, publication.parameters) };
        } catch (error) {
          if (!(error instanceof AppError) || error.code === 'RATE_LIMITED') throw error;
          return { kind: 'unavailable', title: row.title };
        }
      }),
    );
    return { title: page.title, description: page.description, blocks };
  }

  /** One chart of a public page, by its position among the page's charts (for its data download). */
  async showPageChart(publication: PublicationRow, position: number): Promise<PublicChart> {
    const page = await this.store.first(findPageById, { id: publication.object_id });
    const name = page ? blocksOf(page.blocks).flatMap((block) => ('chart' in block ? [block.chart] : []))[position] : undefined;
    const row = name === undefined ? undefined : await this.store.first(findChart, { workspace_id: page!.workspace_id, name });
    if (!row) throw new AppError('NOT_FOUND', 'The page has no such chart');
    return this.publicChart(row, publication.parameters);
  }

  private async take(kind: 'chart' | 'page', token: string, address: string | undefined): Promise<void> {
    await this.limits.take([
      { limit: 'address', key: address ?? 'unknown' },
      { limit: 'link', key: `${kind}:${token.slice(0, 64)}` },
    ]);
  }

  /** A query that fails for a public viewer is logged for its owner; the viewer learns only that the chart is unavailable. */
  private async publicChart(row: ChartRow, lockedParameters: string): Promise<PublicChart> {
    try {
      const result = await this.results.result(row.workspace_id, row.id, await this.boundQuery(row, lockedParameters));
      return this.shown.of(row, result);
    } catch (error) {
      if (error instanceof AppError && (error.code === 'RATE_LIMITED' || error.code === 'CONCURRENCY_LIMITED' || error.code === 'ENGINE_BUSY')) throw error;
      this.logger.warn('a public chart is unavailable', { workspace_id: row.workspace_id, chart: row.name, error });
      throw new AppError('CHART_UNAVAILABLE', 'This chart cannot be shown right now', { hint: 'Its owner has been told in the service log; try again later.' });
    }
  }

  /**
   * The chart's query with its values. A chart's own SQL takes none, so while its row is unchanged the
   * same bound query serves every view (and the result cache knows it by its identity); a saved query
   * is read on every view, as it may have changed.
   */
  private async boundQuery(row: ChartRow, lockedParameters: string): Promise<BoundQuery> {
    const kept = row.sql === null ? undefined : this.bound.get(row.id);
    if (kept && kept.sql === row.sql && kept.parameters === row.parameters && kept.locked === lockedParameters) return kept.query;
    const query = await this.charts.query(row);
    const given = { ...(JSON.parse(row.parameters) as Record<string, unknown>), ...lockedFor(query.definitions, lockedParameters) };
    const { values, issues } = bindValues(query.definitions, given, ['parameters']);
    if (issues.length > 0) throw new Error(`the chart's parameters do not bind: ${issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; ')}`);
    const bound = { sql: query.sql, parameters: values };
    if (row.sql !== null) {
      setBounded(this.bound, row.id, { sql: row.sql, parameters: row.parameters, locked: lockedParameters, query: bound }, this.capacity);
    }
    return bound;
  }
}

/** The link's locked values that the chart's query declares (a page's values apply to each chart that takes them). */
function lockedFor(definitions: { name: string }[], lockedParameters: string): Record<string, unknown> {
  const locked = JSON.parse(lockedParameters) as Record<string, unknown>;
  const names = new Set(definitions.map((definition) => definition.name));
  return Object.fromEntries(Object.entries(locked).filter(([name]) => names.has(name)));
}

interface Shown {
  /** The chart's config as stored: compared as text, so an unchanged chart is not parsed again. */
  config: string;
  chart: PublicChart;
}

/**
 * The public view of each chart, kept while neither the chart's row nor its result changed: views of
 * the same chart and result get the very same object, so whatever is made from it once (the drawing,
 * the whole page) serves them all, and an edit of the chart or a new result makes a new one.
 */
class ShownCharts {
  private readonly byChart = new Map<string, Shown>();

  constructor(private readonly capacity: number) {}

  of(row: ChartRow, result: ChartResult): PublicChart {
    const kept = this.byChart.get(row.id);
    if (
      kept &&
      kept.chart.result === result &&
      kept.config === row.config &&
      kept.chart.title === row.title &&
      kept.chart.description === row.description &&
      kept.chart.chartType === row.chart_type
    ) {
      return kept.chart;
    }
    const chart: PublicChart = {
      title: row.title,
      description: row.description,
      chartType: row.chart_type as ChartType,
      config: JSON.parse(row.config) as ChartConfig,
      result,
    };
    setBounded(this.byChart, row.id, { config: row.config, chart }, this.capacity);
    return chart;
  }
}
