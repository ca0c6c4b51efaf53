import { AppError, RequestValidationError } from '../../errors/app-error';
import { InvalidTableName, PrimaryKeyMismatch, RecordsRejected } from '../../engine/write/write-errors';

/**
 * What the lake writer's errors mean for a request: rejected records are a 422 at the records of the
 * body, a bad table name a 422 at the field that named it, a primary key other than the table's a 409.
 */
export function requestErrorOf(
  error: unknown,
  tableLoc: (string | number)[] = ['body', 'table'],
  recordsLoc: (string | number)[] = ['body', 'records'],
): unknown {
  if (error instanceof RecordsRejected) {
    return new RequestValidationError(
      error.issues.map((issue) => ({
        loc: [...recordsLoc, ...(issue.record === undefined ? [] : [issue.record]), ...(issue.field === undefined ? [] : [issue.field])],
        msg: issue.message,
        type: issue.type,
      })),
    );
  }
  if (error instanceof InvalidTableName) return RequestValidationError.at(tableLoc, error.message, 'value_error');
  if (error instanceof PrimaryKeyMismatch) {
    return new AppError('CONFLICT', error.message.replace('this write asks', 'this push asks'), {
      hint: error.tableKey.length ? 'Push with the same primary_key, or without one to use it.' : 'Push without primary_key, or into a new table.',
    });
  }
  return error;
}

/** Runs work, turning the lake writer's errors into the request's (an upload's records are its body, its table a query parameter). */
export async function asRequestErrors<T>(work: () => Promise<T>, locs: { table?: (string | number)[]; records?: (string | number)[] } = {}): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw requestErrorOf(error, locs.table, locs.records);
  }
}
