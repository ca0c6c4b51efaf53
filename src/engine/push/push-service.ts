import { AppError, RequestValidationError, type ValidationIssue } from '../../errors/app-error';
import type { IdempotencyStore } from '../../idempotency/idempotency-store';
import type { Store } from '../../store/store';
import type { Clock } from '../../util/clock';
import type { EngineManager } from '../engine-manager';
import { catalogColumns } from '../tables/catalog-columns';
import { TableRegistry } from '../tables/table-registry';
import { findCommittedPush } from './committed-push';
import { parseTableName, qualifiedName } from './table-name';
import { writePush } from './write-push';

export interface PushRequest {
  table: string;
  records: unknown[];
  primary_key?: string[];
  mode?: 'append' | 'overwrite';
}

export interface PushResponse {
  records_written: number;
  table: string;
}

const idempotencyScope = 'push';

/**
 * `POST /workspaces/{id}/push`: validates the records, keeps the table's primary key consistent,
 * writes them as one snapshot, and makes retries with an Idempotency-Key safe.
 */
export class PushService {
  constructor(
    private readonly engines: EngineManager,
    private readonly store: Store,
    private readonly idempotency: IdempotencyStore,
    private readonly clock: Clock,
  ) {}

  async push(workspaceId: string, request: PushRequest, idempotencyKey?: string): Promise<PushResponse> {
    const table = parseTableName(request.table);
    const records = validateRecords(request.records, request.primary_key ?? []);
    if (!idempotencyKey) return this.write(workspaceId, table, records, request, {});

    const start = await this.idempotency.start<PushResponse>(workspaceId, idempotencyScope, idempotencyKey, request);
    if (start.kind === 'replay') return start.response;
    if (start.kind === 'abandoned') {
      const committed = await this.engines.with(workspaceId, (engine) => engine.read((connection) => findCommittedPush(connection, engine.metadataSchema, idempotencyKey)));
      if (committed) {
        const response = { records_written: committed.recordsWritten, table: qualifiedName(table) };
        await this.idempotency.complete(workspaceId, idempotencyScope, idempotencyKey, response);
        return response;
      }
    }
    try {
      const response = await this.write(workspaceId, table, records, request, { idempotency_key: idempotencyKey });
      await this.idempotency.complete(workspaceId, idempotencyScope, idempotencyKey, response);
      return response;
    } catch (error) {
      await this.idempotency.abandon(workspaceId, idempotencyScope, idempotencyKey);
      throw error;
    }
  }

  private async write(
    workspaceId: string,
    table: ReturnType<typeof parseTableName>,
    records: Record<string, unknown>[],
    request: PushRequest,
    commitInfo: Record<string, unknown>,
  ): Promise<PushResponse> {
    const registry = new TableRegistry(this.store);
    const requestedKey = request.primary_key ?? [];
    const outcome = await this.engines.with(workspaceId, (engine) =>
      engine.writeTable(qualifiedName(table), async (connection) => {
        const exists = (await catalogColumns(connection, table)) !== undefined;
        const tableKey = exists ? ((await registry.primaryKey(workspaceId, table)) ?? []) : requestedKey;
        if (exists && requestedKey.length > 0 && !sameKey(requestedKey, tableKey)) {
          throw new AppError('CONFLICT', `${qualifiedName(table)} has ${tableKey.length ? `the primary key (${tableKey.join(', ')})` : 'no primary key'}; this push asks for (${requestedKey.join(', ')})`, {
            hint: tableKey.length ? 'Push with the same primary_key, or without one to use it.' : 'Push without primary_key, or into a new table.',
          });
        }
        // A key inherited from the table binds this push's records as much as one it names itself.
        if (tableKey.length > 0) validateKeyPresence(records, tableKey);
        const result = await writePush(connection, engine.stagingDir, { table, records, mode: request.mode ?? 'append', primaryKey: tableKey, commitInfo });
        const now = this.clock.now().toISOString();
        if (result.createdTable) await registry.created(workspaceId, table, tableKey, now);
        else await registry.written(workspaceId, table, now);
        return result;
      }),
    );
    return { records_written: outcome.rowsWritten, table: qualifiedName(table) };
  }
}

function validateRecords(records: unknown[], primaryKey: string[]): Record<string, unknown>[] {
  const issues: ValidationIssue[] = [];
  records.forEach((record, index) => {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) {
      issues.push({ loc: ['body', 'records', index], msg: 'Each record must be a JSON object', type: 'dict_type' });
    }
  });
  if (issues.length > 0) throw new RequestValidationError(issues.slice(0, 50));
  const objects = records as Record<string, unknown>[];
  if (objects.every((record) => Object.keys(record).length === 0)) {
    throw RequestValidationError.at(['body', 'records'], 'The records have no fields', 'value_error');
  }
  if (new Set(primaryKey).size !== primaryKey.length) throw RequestValidationError.at(['body', 'primary_key'], 'Primary key columns must be distinct', 'value_error');
  validateKeyPresence(objects, primaryKey);
  return objects;
}

/** Every record carries every key column, with a scalar (keys identify rows; JSON does not compare). */
function validateKeyPresence(records: Record<string, unknown>[], primaryKey: string[]): void {
  const issues: ValidationIssue[] = [];
  for (const [index, record] of records.entries()) {
    for (const key of primaryKey) {
      // Own fields only: a key named `constructor` must not find Object.prototype's.
      const value = Object.hasOwn(record, key) ? record[key] : undefined;
      if (value === undefined || value === null) issues.push({ loc: ['body', 'records', index, key], msg: `Primary key column "${key}" must be present and not null`, type: 'missing' });
      else if (typeof value === 'object') issues.push({ loc: ['body', 'records', index, key], msg: `Primary key column "${key}" must be a scalar`, type: 'value_error' });
    }
    if (issues.length >= 50) break;
  }
  if (issues.length > 0) throw new RequestValidationError(issues);
}

function sameKey(a: string[], b: string[]): boolean {
  const fold = (key: string[]) => [...key].map((column) => column.toLowerCase()).sort().join('\u0000');
  return fold(a) === fold(b);
}
