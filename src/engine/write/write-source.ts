import type { EngineConnection } from '../duckdb/engine-connection';
import type { InferredColumn } from './infer-schema';
import type { WritePlan } from './plan-write';
import type { StagedRecords } from './stage-records';
import type { RecordsRejected } from './write-errors';

/**
 * Where a write's rows come from: records held in memory (a JSON push, a sync's batch) or a file of
 * records in a format DuckDB reads itself (an upload). Either way the write infers the same columns,
 * plans the same schema change and commits the same single snapshot.
 */
export interface WriteSource {
  /**
   * The incoming fields and their types. `thorough` asks a source that infers from a sample of its
   * input (a CSV file) to read all of it: called so after reading its sample's types failed.
   */
  columns(connection: EngineConnection, thorough: boolean): Promise<InferredColumn[]>;
  /** Refuses the write when a key column is missing or unfit in what is known before staging. */
  checkKey(primaryKey: string[], columns: InferredColumn[]): void;
  /** Makes the rows readable by the write's statements (see StagedRecords). */
  stage(connection: EngineConnection, stagingDir: string, stagingName: string, plan: WritePlan, primaryKey: string[]): Promise<StagedRecords>;
  /** What an error of the write's statements means for this input: records it cannot take, or undefined. */
  rejection(error: unknown, thorough: boolean): { rejected: RecordsRejected } | { readAgainThoroughly: true } | undefined;
}
