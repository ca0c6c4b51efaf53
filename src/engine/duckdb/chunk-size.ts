import duckdb from '@duckdb/node-bindings';
import {
  DuckDBTypeId,
  type DuckDBArrayType,
  type DuckDBDataChunk,
  type DuckDBListType,
  type DuckDBMapType,
  type DuckDBStructType,
  type DuckDBType,
  type DuckDBUnionType,
} from '@duckdb/node-api';
import { rowIsValid } from './validity-bits';

/** DuckDB keeps every string, blob and bit value as a 16-byte entry whose first four bytes are its length. */
const stringEntryBytes = 16;

const variableSize = new Set<DuckDBTypeId>([DuckDBTypeId.VARCHAR, DuckDBTypeId.BLOB, DuckDBTypeId.BIT, DuckDBTypeId.BIGNUM]);

/**
 * About how many bytes a chunk's values take, read from DuckDB's vectors without turning them into
 * JavaScript values: a result cap is checked before a gigabyte string is copied onto the event loop.
 */
export function chunkByteSize(chunk: DuckDBDataChunk, types: readonly DuckDBType[]): number {
  let bytes = 0;
  for (const [index, type] of types.entries()) bytes += vectorBytes(duckdb.data_chunk_get_vector(chunk.chunk, index), type, chunk.rowCount);
  return bytes;
}

function vectorBytes(vector: duckdb.Vector, type: DuckDBType, count: number): number {
  if (count === 0) return 0;
  if (variableSize.has(type.typeId)) return stringBytes(vector, count);
  switch (type.typeId) {
    case DuckDBTypeId.LIST:
      return 16 * count + vectorBytes(duckdb.list_vector_get_child(vector), (type as DuckDBListType).valueType, duckdb.list_vector_get_size(vector));
    case DuckDBTypeId.MAP: {
      const map = type as DuckDBMapType;
      const entries = duckdb.list_vector_get_child(vector);
      const size = duckdb.list_vector_get_size(vector);
      return (
        16 * count +
        vectorBytes(duckdb.struct_vector_get_child(entries, 0), map.keyType, size) +
        vectorBytes(duckdb.struct_vector_get_child(entries, 1), map.valueType, size)
      );
    }
    case DuckDBTypeId.ARRAY: {
      const array = type as DuckDBArrayType;
      return vectorBytes(duckdb.array_vector_get_child(vector), array.valueType, count * array.length);
    }
    case DuckDBTypeId.STRUCT:
      return (type as DuckDBStructType).entryTypes.reduce(
        (sum, entry, index) => sum + vectorBytes(duckdb.struct_vector_get_child(vector, index), entry, count),
        0,
      );
    case DuckDBTypeId.UNION:
      // Physically a struct whose first child is the tag.
      return (
        count +
        (type as DuckDBUnionType).memberTypes.reduce(
          (sum, member, index) => sum + vectorBytes(duckdb.struct_vector_get_child(vector, index + 1), member, count),
          0,
        )
      );
    default:
      return 16 * count;
  }
}

function stringBytes(vector: duckdb.Vector, count: number): number {
  const data = duckdb.vector_get_data(vector, count * stringEntryBytes);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const validity = duckdb.vector_get_validity(vector, Math.ceil(count / 64) * 8);
  let bytes = 0;
  for (let row = 0; row < count; row++) {
    if (!rowIsValid(validity, row)) continue;
    bytes += view.getUint32(row * stringEntryBytes, true) + stringEntryBytes;
  }
  return bytes;
}
