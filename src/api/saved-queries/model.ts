import { t } from 'elysia';
import { text } from '../text';
import { queryModels } from '../query/model';

/** Saved queries, charts and pages are known by this name within their workspace. */
export const objectName = (description: string) => text({ minLength: 1, maxLength: 63, pattern: '^[a-z0-9][a-z0-9_-]{0,62}$', description });
const ParameterValue = t.Union([t.String(), t.Number(), t.Boolean()], {
  description: 'A value of the parameter’s type: integers and numbers as JSON numbers or decimal text, dates `YYYY-MM-DD`, timestamps ISO 8601',
});
const ParameterType = t.Union(
  [t.Literal('string'), t.Literal('integer'), t.Literal('number'), t.Literal('boolean'), t.Literal('date'), t.Literal('timestamp'), t.Literal('enum')],
  {
    description: 'VARCHAR, BIGINT, DOUBLE, BOOLEAN, DATE, TIMESTAMPTZ, or one of `options` (VARCHAR)',
  },
);
const ParameterDefinition = t.Object({
  name: text({ minLength: 1, maxLength: 63, pattern: '^[a-z_][a-z0-9_]*$', description: 'Written `{{name}}` in the SQL, where the value goes' }),
  type: ParameterType,
  default: t.Optional(ParameterValue),
  required: t.Optional(t.Boolean({ default: true, description: 'Without a value or default: refused when required, NULL otherwise' })),
  options: t.Optional(t.Array(text({ maxLength: 1_000 }), { minItems: 1, maxItems: 1_000, description: 'The values of an enum parameter' })),
  description: t.Optional(text({ maxLength: 1_000 })),
});
/** Values by parameter name. */
export const ParameterValues = t.Record(t.String(), t.Union([ParameterValue, t.Null()]), { description: 'Values by parameter name' });
const sql = text({ minLength: 1, maxLength: 1_000_000, description: 'One read statement; `{{name}}` placeholders take the declared parameters' });

export const savedQueryModels = {
  ParameterType,
  ParameterDefinition,
  ParameterValues,
  SavedQueryCreateRequest: t.Object({
    name: objectName('Unique in the workspace'),
    description: t.Optional(text({ maxLength: 10_000 })),
    sql,
    parameters: t.Optional(t.Array(ParameterDefinition, { maxItems: 100 })),
  }),
  SavedQueryResponse: t.Object({
    id: t.String({ format: 'uuid' }),
    workspace_id: t.String({ format: 'uuid' }),
    name: t.String(),
    description: t.Nullable(t.String()),
    sql: t.String(),
    parameters: t.Array(ParameterDefinition),
    created_at: t.String({ format: 'date-time' }),
    updated_at: t.String({ format: 'date-time' }),
  }),
  SavedQueryRunRequest: t.Object({ parameters: t.Optional(ParameterValues), format: t.Optional(queryModels.ResultFormat) }),
};

export const savedQueryParams = t.Object({ workspace_id: t.String({ format: 'uuid' }), name: t.String({ maxLength: 200 }) });
