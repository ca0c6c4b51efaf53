/** One thing wrong with the records of a write: which record (by position) and which field, when known. */
export interface RecordIssue {
  record?: number;
  field?: string;
  message: string;
  /** A short machine-readable kind (`value_error`, `missing`, `dict_type`, `too_long`). */
  type: string;
}

/** Records that cannot be written as they are; nothing of the write happened. */
export class RecordsRejected extends Error {
  constructor(readonly issues: RecordIssue[]) {
    super(
      issues
        .map((issue) =>
          [issue.record === undefined ? undefined : `record ${issue.record}`, issue.field && `field "${issue.field}"`, issue.message]
            .filter(Boolean)
            .join(': '),
        )
        .join('; '),
    );
    this.name = 'RecordsRejected';
  }
}

/** A name that is not a `<namespace>.<table>` the lake can hold. */
export class InvalidTableName extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidTableName';
  }
}

/** The write names a primary key other than the one the table keeps. */
export class PrimaryKeyMismatch extends Error {
  constructor(
    readonly table: string,
    readonly tableKey: string[],
    readonly requestedKey: string[],
  ) {
    super(`${table} has ${tableKey.length ? `the primary key (${tableKey.join(', ')})` : 'no primary key'}; this write asks for (${requestedKey.join(', ')})`);
    this.name = 'PrimaryKeyMismatch';
  }
}

/** At most this many issues are reported: enough to fix a batch, not a megabyte of errors. */
export const maxReportedIssues = 50;
