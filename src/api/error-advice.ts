import type { Advice, AppError } from '../errors/app-error';

/** Where the HTTP interface offers what an error's advice points to. */
const whereOnTheApi: Record<Advice, string> = {
  'run-as-job': 'Jobs are submitted with POST /api/v1/query/jobs.',
  'list-tables': 'GET /api/v1/query/tables lists the tables.',
};

/** The error's hint, followed by where the interface offers what its advice points to. */
export function hintOnTheApi(error: AppError): string | undefined {
  const parts = [error.hint, error.advice && whereOnTheApi[error.advice]].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(' ') : undefined;
}
