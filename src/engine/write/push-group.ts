import { inferColumns, type InferredColumn } from './infer-schema';
import { recordsSource } from './records-source';
import type { StagedRecords } from './stage-records';
import type { WriteSource } from './write-source';

/** A group commits at most this many pushes… */
export const maxGroupWrites = 64;
/** …and at most this many bytes of records (as received) together. */
export const maxGroupBytes = 4 * 1024 * 1024;
/** A push larger than either of these commits alone: grouping pays for small pushes, whose commit is most of their cost. */
const maxMemberRecords = 1_000;
const maxMemberBytes = 1024 * 1024;

/** What decides whether a push of records may commit with others. */
export interface GroupMember {
  /** Pushes of the same kind (mode and the key they name) may share a commit. */
  kind: string;
  records: Record<string, unknown>[];
  bytes: number;
  /** Its columns as inferred alone, by lower-cased name. */
  columns: Map<string, InferredColumn>;
}

interface MemberOf {
  mode: 'append' | 'overwrite';
  primaryKey?: string[];
  recordsText?: Uint8Array;
  deleted?: unknown;
}

/**
 * How a push of small records may join others (undefined: it commits alone). Only appends (upserts,
 * with a key) group: an overwrite's meaning is the whole table.
 */
export function groupMember(request: MemberOf, records: Record<string, unknown>[]): GroupMember | undefined {
  if (request.mode !== 'append' || request.deleted !== undefined || records.length > maxMemberRecords) return undefined;
  const bytes = request.recordsText?.byteLength ?? JSON.stringify(records).length;
  if (bytes > maxMemberBytes) return undefined;
  let inferred: InferredColumn[];
  try {
    inferred = inferColumns(records);
  } catch {
    // Records it refuses fail in their own write, as they would without groups.
    return undefined;
  }
  return {
    kind: `${request.mode}:${JSON.stringify(request.primaryKey ?? null)}`,
    records,
    bytes,
    columns: new Map(inferred.map((column) => [column.name.toLowerCase(), column])),
  };
}

/**
 * Whether `next` commits with the group as if each were written alone in turn: the same kind, within
 * the bounds, and every field the group already has inferred alike (same spelling, same type). A new
 * field is fine: added before the group's rows, it reads NULL in those before it, as it would have.
 * A field typed otherwise (a wider type, text where numbers were, nulls only) ends the group before it:
 * alone, the later push would widen what the earlier one wrote, which one inference of both may not match.
 * The group runs in its head's statement slot: a push that joins it waits no longer than it would
 * have for its own turn, and its own wait for a slot ends there.
 */
export function joinsGroup(group: readonly (GroupMember | undefined)[], next: GroupMember | undefined): boolean {
  if (!next || group.length >= maxGroupWrites) return false;
  let bytes = next.bytes;
  for (const member of group) {
    if (!member || member.kind !== next.kind) return false;
    bytes += member.bytes;
    for (const [folded, column] of next.columns) {
      const known = member.columns.get(folded);
      if (known && (known.name !== column.name || known.type !== column.type)) return false;
    }
  }
  return bytes <= maxGroupBytes;
}

/** The records of a group as one source, and the rows each member writes (known once they are staged). */
export function groupSource(members: readonly Pick<GroupMember, 'records'>[]): { source: WriteSource; memberRows: () => number[] } {
  const sizes = members.map((member) => member.records.length);
  const inner = recordsSource(
    members.flatMap((member) => member.records),
    undefined,
    sizes,
  );
  let rows: number[] | undefined;
  const source: WriteSource = {
    ...inner,
    async stage(...args): Promise<StagedRecords> {
      const staged = await inner.stage(...args);
      rows = staged.memberRows;
      return staged;
    },
  };
  return {
    source,
    memberRows: () => {
      if (!rows) throw new Error('the group has not been staged');
      return rows;
    },
  };
}
