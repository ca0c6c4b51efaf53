import { SourceError } from '../../source-error';

/** A table as the log describes it (its Relation message): where it is, and its columns in order. */
export interface LogRelation {
  id: number;
  schema: string;
  table: string;
  /** `d` default (the primary key), `f` full, `i` an index, `n` nothing (deletes carry no key). */
  replicaIdentity: string;
  columns: { name: string; typeOid: number; key: boolean }[];
}

/** A column value in a tuple: text (the type's output), null, or unchanged (a TOASTed value an update did not touch). */
export type LogValue = string | null | { unchanged: true };

/** One change of the log, decoded. */
export type LogChange =
  | { kind: 'begin'; commitTime: Date }
  | { kind: 'commit'; endLsn: bigint }
  | { kind: 'relation'; relation: LogRelation }
  | { kind: 'insert'; relationId: number; row: LogValue[] }
  | { kind: 'update'; relationId: number; old: LogValue[] | null; row: LogValue[] }
  | { kind: 'delete'; relationId: number; old: LogValue[] }
  | { kind: 'truncate'; relationIds: number[] }
  | { kind: 'other' };

/** Microseconds from the Unix epoch to Postgres' (2000-01-01). */
const postgresEpochMicros = 946_684_800_000_000n;

/**
 * Decodes one message of Postgres' `pgoutput` plugin, protocol version 1, as the slot functions
 * (`pg_logical_slot_peek_binary_changes`) give them: Begin, Commit, Relation, Insert, Update, Delete
 * and Truncate (https://www.postgresql.org/docs/current/protocol-logicalrep-message-formats.html);
 * Origin, Type and logical Messages are passed over. Values come as the text the type outputs.
 */
export function decodeMessage(data: Uint8Array): LogChange {
  const reader = new MessageReader(data);
  const kind = String.fromCharCode(reader.byte());
  switch (kind) {
    case 'B': {
      reader.int64(); // the transaction's final LSN
      const micros = reader.int64();
      return { kind: 'begin', commitTime: new Date(Number((micros + postgresEpochMicros) / 1000n)) };
    }
    case 'C': {
      reader.byte(); // flags
      reader.int64(); // the commit's LSN
      return { kind: 'commit', endLsn: reader.int64() };
    }
    case 'R': {
      const id = reader.int32();
      const schema = reader.string();
      const table = reader.string();
      const replicaIdentity = String.fromCharCode(reader.byte());
      const columns = Array.from({ length: reader.int16() }, () => {
        const key = (reader.byte() & 1) === 1;
        const name = reader.string();
        const typeOid = reader.int32();
        reader.int32(); // type modifier
        return { name, typeOid, key };
      });
      return { kind: 'relation', relation: { id, schema, table, replicaIdentity, columns } };
    }
    case 'I': {
      const relationId = reader.int32();
      reader.expect('N');
      return { kind: 'insert', relationId, row: reader.tuple() };
    }
    case 'U': {
      const relationId = reader.int32();
      let marker = String.fromCharCode(reader.byte());
      let old: LogValue[] | null = null;
      if (marker === 'K' || marker === 'O') {
        old = reader.tuple();
        marker = String.fromCharCode(reader.byte());
      }
      if (marker !== 'N') throw new SourceError('bad_response', `pgoutput: an Update without its new tuple (${marker})`);
      return { kind: 'update', relationId, old, row: reader.tuple() };
    }
    case 'D': {
      const relationId = reader.int32();
      const marker = String.fromCharCode(reader.byte());
      if (marker !== 'K' && marker !== 'O') throw new SourceError('bad_response', `pgoutput: a Delete without its old key (${marker})`);
      return { kind: 'delete', relationId, old: reader.tuple() };
    }
    case 'T': {
      const count = reader.int32();
      reader.byte(); // options (CASCADE, RESTART IDENTITY)
      return { kind: 'truncate', relationIds: Array.from({ length: count }, () => reader.int32()) };
    }
    default:
      return { kind: 'other' };
  }
}

class MessageReader {
  private offset = 0;
  private readonly view: DataView;
  private readonly text = new TextDecoder();

  constructor(private readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  byte(): number {
    this.need(1);
    return this.view.getUint8(this.offset++);
  }

  int16(): number {
    return this.fixed(2, (offset) => this.view.getInt16(offset));
  }

  int32(): number {
    return this.fixed(4, (offset) => this.view.getInt32(offset));
  }

  int64(): bigint {
    return this.fixed(8, (offset) => this.view.getBigInt64(offset));
  }

  /** A big-endian field of `bytes` bytes, read and stepped over. */
  private fixed<T>(bytes: number, read: (offset: number) => T): T {
    this.need(bytes);
    const value = read(this.offset);
    this.offset += bytes;
    return value;
  }

  string(): string {
    const end = this.data.indexOf(0, this.offset);
    if (end < 0) throw new SourceError('bad_response', 'pgoutput: an unterminated string');
    const value = this.text.decode(this.data.subarray(this.offset, end));
    this.offset = end + 1;
    return value;
  }

  expect(marker: string): void {
    const found = String.fromCharCode(this.byte());
    if (found !== marker) throw new SourceError('bad_response', `pgoutput: expected ${marker}, found ${found}`);
  }

  /** TupleData: each column null, unchanged (TOAST), or text of a length. */
  tuple(): LogValue[] {
    return Array.from({ length: this.int16() }, (): LogValue => {
      const kind = String.fromCharCode(this.byte());
      if (kind === 'n') return null;
      if (kind === 'u') return { unchanged: true };
      if (kind !== 't') throw new SourceError('bad_response', `pgoutput: a column of kind ${kind} (binary values are not asked for)`);
      const length = this.int32();
      this.need(length);
      const value = this.text.decode(this.data.subarray(this.offset, this.offset + length));
      this.offset += length;
      return value;
    });
  }

  private need(bytes: number): void {
    if (this.offset + bytes > this.data.byteLength) throw new SourceError('bad_response', 'pgoutput: a message shorter than its fields');
  }
}
