import { t } from 'elysia';
import { errorCatalogue, type ErrorCode } from '../../errors/catalogue';

const codes = Object.keys(errorCatalogue) as ErrorCode[];

const ErrorCodeSchema = t.Union(
  codes.map((code) => t.Literal(code)),
  { description: 'Every code the service answers with; each has one HTTP status' },
);
const ValidationIssue = t.Object({
  loc: t.Array(t.Union([t.String(), t.Integer()]), {
    description: 'Where: `body`, `query`, `path` or `header`, then the field names and list positions down to the value',
  }),
  msg: t.String(),
  type: t.String({ description: 'What kind of problem, in FastAPI’s words: missing, string_too_long, int_parsing, json_too_deep…' }),
});

/** The bodies of error answers: the envelope every error uses, and the 422 of a request that fails validation. */
export const errorModels = {
  ErrorCode: ErrorCodeSchema,
  ErrorEnvelope: t.Object(
    {
      detail: t.Object({
        error: t.Object({
          code: ErrorCodeSchema,
          message: t.String(),
          hint: t.Optional(t.String({ description: 'What to do about it; a 500 quotes the request id here' })),
        }),
      }),
    },
    { description: '`{"detail": {"error": {"code", "message", "hint"?}}}`' },
  ),
  ValidationIssue,
  ValidationError: t.Object({ detail: t.Array(ValidationIssue) }, { description: '422: `{"detail": [{"loc", "msg", "type"}]}`' }),
};

/** The codes answered with a status, for the description of that status. */
export function codesWithStatus(status: number): ErrorCode[] {
  return codes.filter((code) => errorCatalogue[code] === status);
}
