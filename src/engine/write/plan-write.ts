import type { CatalogColumn } from '../tables/catalog-columns';
import { canPromoteInPlace, valueTypeOf, widen, type ValueType } from './column-types';
import type { InferredColumn } from './infer-schema';

export interface PlannedColumn {
  /** The table's column name (an existing column keeps its spelling). */
  name: string;
  /** The column's DuckDB type after the push. */
  type: string;
  /** The lattice type values are staged for. */
  valueType: ValueType;
}

export interface WritePlan {
  createTable: boolean;
  /** Every column of the table after the push, in table order. */
  columns: PlannedColumn[];
  /** Incoming fields and the table column each one fills. */
  incoming: { field: string; column: PlannedColumn }[];
  addColumns: PlannedColumn[];
  /** Columns DuckLake can widen in place (BIGINT → DOUBLE). */
  promote: PlannedColumn[];
  /** Other type changes (to VARCHAR, to JSON, DATE → TIMESTAMPTZ) rebuild the table in the same snapshot. */
  rebuild: boolean;
}

/**
 * How a write changes a table: new fields become new nullable columns; a field whose values need a
 * wider type widens its column; fields the write lacks stay and read as NULL for its records.
 */
export function planWrite(existing: CatalogColumn[] | undefined, inferred: InferredColumn[]): WritePlan {
  const columns: PlannedColumn[] = (existing ?? []).map((column) => ({ name: column.name, type: column.type, valueType: valueTypeOf(column.type) }));
  const byFoldedName = new Map(columns.map((column) => [column.name.toLowerCase(), column]));
  const plan: WritePlan = { createTable: existing === undefined, columns, incoming: [], addColumns: [], promote: [], rebuild: false };

  for (const field of inferred) {
    const current = byFoldedName.get(field.name.toLowerCase());
    if (!current) {
      const added = { name: field.name, type: field.type, valueType: field.type };
      columns.push(added);
      if (existing) plan.addColumns.push(added);
      plan.incoming.push({ field: field.name, column: added });
      continue;
    }
    const target = widen(current.valueType, field.type);
    if (target !== current.valueType) {
      if (canPromoteInPlace(current.valueType, target)) plan.promote.push(current);
      else plan.rebuild = true;
      current.type = target;
      current.valueType = target;
    }
    plan.incoming.push({ field: field.name, column: current });
  }
  return plan;
}
