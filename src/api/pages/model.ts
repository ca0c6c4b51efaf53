import { t } from 'elysia';
import { text } from '../text';
import { objectName } from '../saved-queries/model';
import { chartModels } from '../charts/model';

const chartName = text({ minLength: 1, maxLength: 63, description: 'A chart of the workspace' });
const PageBlock = t.Union([
  t.Object({ chart: chartName }),
  t.Object({ markdown: text({ maxLength: 100_000, description: 'Markdown; raw HTML is shown as text' }) }),
]);
const title = text({ minLength: 1, maxLength: 200 });
const description = text({ maxLength: 10_000 });

export const pageModels = {
  PageBlock,
  PageCreateRequest: t.Object({
    name: objectName('Unique in the workspace'),
    title,
    description: t.Optional(t.Nullable(description)),
    charts: t.Optional(t.Array(chartName, { maxItems: 100, description: 'The charts in order; with blocks, the blocks’ charts in the same order' })),
    blocks: t.Optional(t.Array(PageBlock, { maxItems: 200 })),
  }),
  PageUpdateRequest: t.Object({
    title: t.Optional(title),
    description: t.Optional(t.Nullable(description)),
    charts: t.Optional(t.Array(chartName, { maxItems: 100 })),
    blocks: t.Optional(t.Array(PageBlock, { maxItems: 200 })),
  }),
  PageResponse: t.Object({
    id: t.String({ format: 'uuid' }),
    workspace_id: t.String({ format: 'uuid' }),
    name: t.String(),
    title: t.String(),
    description: t.Nullable(t.String()),
    charts: t.Array(t.String()),
    blocks: t.Array(PageBlock),
    created_at: t.String({ format: 'date-time' }),
    updated_at: t.String({ format: 'date-time' }),
    published: chartModels.PublishedState,
  }),
};

export const pageParams = t.Object({ workspace_id: t.String({ format: 'uuid' }), name: t.String({ maxLength: 200 }) });
