import { t } from 'elysia';
import { text } from '../text';
import { objectName, ParameterValues } from '../saved-queries/model';

const column = text({ minLength: 1, maxLength: 255, description: 'A column of the query’s result' });
const ChartType = t.Union([
  t.Literal('bar'),
  t.Literal('line'),
  t.Literal('area'),
  t.Literal('pie'),
  t.Literal('scatter'),
  t.Literal('table'),
  t.Literal('number'),
]);
const ChartConfig = t.Object(
  {
    x: t.Optional(column),
    y: t.Optional(t.Array(column, { maxItems: 50 })),
    series: t.Optional(column),
    stacked: t.Optional(t.Boolean()),
    columns: t.Optional(t.Array(column, { maxItems: 200, description: 'A table’s columns, in order' })),
  },
  {
    description:
      'bar, line, area: x and y (numeric), series and stacked optional; scatter: x and y, series optional; pie: x (labels) and one y; number: one y; table: columns optional',
  },
);
const PublishedState = t.Nullable(
  t.Object(
    { published_at: t.String({ format: 'date-time' }), expires_at: t.Nullable(t.String({ format: 'date-time' })) },
    { description: 'The public link, when there is one (its token is shown only when published)' },
  ),
);
const title = text({ minLength: 1, maxLength: 200 });
const description = text({ maxLength: 10_000 });

export const chartModels = {
  ChartType,
  ChartConfig,
  PublishedState,
  ChartCreateRequest: t.Object({
    name: objectName('Unique in the workspace'),
    title,
    description: t.Optional(t.Nullable(description)),
    sql: t.Optional(t.Nullable(text({ minLength: 1, maxLength: 1_000_000, description: 'The chart’s own query (exactly one of sql and saved_query)' }))),
    saved_query: t.Optional(t.Nullable(text({ minLength: 1, maxLength: 63, description: 'The name of a saved query of the workspace' }))),
    parameters: t.Optional(ParameterValues),
    chart_type: ChartType,
    config: ChartConfig,
  }),
  ChartUpdateRequest: t.Object({
    title: t.Optional(title),
    description: t.Optional(t.Nullable(description)),
    sql: t.Optional(t.Nullable(text({ minLength: 1, maxLength: 1_000_000 }))),
    saved_query: t.Optional(t.Nullable(text({ minLength: 1, maxLength: 63 }))),
    parameters: t.Optional(ParameterValues),
    chart_type: t.Optional(ChartType),
    config: t.Optional(ChartConfig),
  }),
  ChartResponse: t.Object({
    id: t.String({ format: 'uuid' }),
    workspace_id: t.String({ format: 'uuid' }),
    name: t.String(),
    title: t.String(),
    description: t.Nullable(t.String()),
    sql: t.Nullable(t.String()),
    saved_query: t.Nullable(t.String()),
    parameters: ParameterValues,
    chart_type: ChartType,
    config: ChartConfig,
    created_at: t.String({ format: 'date-time' }),
    updated_at: t.String({ format: 'date-time' }),
    published: PublishedState,
  }),
  PublishRequest: t.Object({
    expires_at: t.Optional(t.String({ format: 'date-time', description: 'When the link stops working (never, when absent)' })),
    parameters: t.Optional(ParameterValues),
  }),
  PublishResponse: t.Object({
    token: t.String({ description: '32 random bytes, base64url; shown this once' }),
    url: t.String({ format: 'uri' }),
    expires_at: t.Nullable(t.String({ format: 'date-time' })),
    published_at: t.String({ format: 'date-time' }),
  }),
};

export const chartParams = t.Object({ workspace_id: t.String({ format: 'uuid' }), name: t.String({ maxLength: 200 }) });
