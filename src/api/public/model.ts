import { t } from 'elysia';
import { queryModels } from '../query/model';

export const publicModels = {
  PublicChartData: t.Object(
    {
      title: t.String(),
      columns: t.Array(queryModels.ResultColumn),
      rows: t.Array(t.Array(t.Unknown())),
      row_count: t.Integer(),
      refreshed_at: t.String({ format: 'date-time', description: 'When the query ran: the data is as of then' }),
    },
    { description: 'A public chart’s data; values are encoded as for /query' },
  ),
};

export const tokenParams = t.Object({ token: t.String({ maxLength: 200, description: 'The token of the public link' }) });
export const dataQuery = t.Object({
  format: t.Optional(t.Union([t.Literal('json'), t.Literal('csv')], { default: 'json', description: 'json (the default) or csv (a download)' })),
});
