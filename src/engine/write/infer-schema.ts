import { maxReportedIssues, RecordsRejected, type RecordIssue } from './write-errors';
import { typeOfValue, widen, type ValueType } from './column-types';

export interface InferredColumn {
  name: string;
  type: ValueType;
}

const maxColumnNameLength = 255;
const maxColumns = 1_000;

/**
 * Columns in order of first appearance, each with the narrowest type that holds all of its values.
 * A column whose values are all null is VARCHAR. Names that differ only in case are refused: SQL
 * would see one column.
 */
export function inferColumns(records: Record<string, unknown>[]): InferredColumn[] {
  const inference = new ColumnInference();
  records.forEach((record, index) => inference.add(record, index));
  return inference.columns();
}

/** A ColumnInference's findings as plain data (see ColumnInference.state). */
export interface InferenceState {
  /** Names in order of first appearance, each with its type so far (undefined: only nulls). */
  types: [string, ValueType | undefined][];
  mixed: string[];
  negativeZero: boolean;
  /** How many issues it found: a part with any is read again in one run, which names them. */
  issues: number;
}

/**
 * inferColumns one record at a time, for records that are read as they arrive and not kept (a
 * newline-delimited upload): the same rules, the same issues.
 */
export class ColumnInference {
  private readonly types = new Map<string, ValueType | undefined>();
  private readonly byFoldedName = new Map<string, string>();
  private readonly issues: RecordIssue[] = [];
  /** Fields that hold text and other values alike (a number, then a string). */
  private readonly mixed = new Set<string>();
  private negativeZero = false;

  add(record: Record<string, unknown>, index: number): void {
    const { types } = this;
    for (const name in record) {
      const value = record[name];
      if (value === 0 && 1 / value < 0) this.negativeZero = true;
      let current = types.get(name);
      if (current === undefined && !types.has(name)) {
        const problem = columnNameProblem(name, this.byFoldedName);
        if (problem) {
          if (this.issues.length < maxReportedIssues) this.issues.push({ record: index, field: name, message: problem, type: 'value_error' });
          continue;
        }
        this.byFoldedName.set(name.toLowerCase(), name);
        types.set(name, undefined);
      }
      // VARCHAR holds every value: once a column is VARCHAR, nothing it sees can change that.
      if (current === 'VARCHAR') {
        if (typeof value !== 'string' && value !== null) this.mixed.add(name);
        continue;
      }
      const valueType = typeOfValue(value);
      if (valueType === undefined || valueType === current) continue;
      const next = current === undefined ? valueType : widen(current, valueType);
      if (next === 'VARCHAR' && (typeof value !== 'string' || !holdsText(current))) this.mixed.add(name);
      types.set(name, next);
    }
  }

  /** Whether every value of the field seen so far is a string (or null). */
  onlyText(name: string): boolean {
    return holdsText(this.types.get(name)) && !this.mixed.has(name);
  }

  /** How many fields the records have had so far. */
  get fieldCount(): number {
    return this.types.size;
  }

  /** Whether a number was -0, which a JSON text may spell (`-0.0`) but JSON.stringify writes as 0. */
  get sawNegativeZero(): boolean {
    return this.negativeZero;
  }

  /** What this inference has seen, as plain data another thread can send (see merged). */
  state(): InferenceState {
    return { types: [...this.types], mixed: [...this.mixed], negativeZero: this.negativeZero, issues: this.issues.length };
  }

  /**
   * The inference of records read in consecutive parts (a large body read on two threads), exactly as
   * if they had been added in one run; undefined where that cannot be told from the parts (a part
   * with issues, names that clash across parts, a JSON column meeting another type, whose widening
   * depends on the order of the values), and the records are then read in one run.
   */
  static merged(parts: readonly InferenceState[]): ColumnInference | undefined {
    const merged = new ColumnInference();
    for (const part of parts) {
      if (part.issues > 0) return undefined;
      for (const name of part.mixed) merged.mixed.add(name);
      merged.negativeZero ||= part.negativeZero;
      for (const [name, type] of part.types) {
        if (!merged.types.has(name)) {
          if (merged.byFoldedName.has(name.toLowerCase())) return undefined;
          merged.byFoldedName.set(name.toLowerCase(), name);
          merged.types.set(name, type);
          continue;
        }
        const current = merged.types.get(name);
        if (current === undefined || type === undefined || current === type) {
          merged.types.set(name, current ?? type);
          continue;
        }
        if (current === 'JSON' || type === 'JSON') return undefined;
        const next = widen(current, type);
        // A column of text that also saw other values (see add).
        if (next === 'VARCHAR' && (!holdsText(current) || !holdsText(type))) merged.mixed.add(name);
        merged.types.set(name, next);
      }
    }
    return merged;
  }

  /** The columns seen so far; refuses the records when a name broke a rule or there are too many. */
  columns(): InferredColumn[] {
    const issues = [...this.issues];
    if (this.types.size > maxColumns) issues.push({ message: `At most ${maxColumns} distinct fields per table`, type: 'too_long' });
    if (issues.length > 0) throw new RecordsRejected(issues.slice(0, maxReportedIssues));
    return [...this.types].map(([name, type]) => ({ name, type: type ?? 'VARCHAR' }));
  }
}

/** The same name rules for columns a file declares (a CSV header, a Parquet schema). */
export function checkColumnNames(names: readonly string[]): void {
  const seen = new Map<string, string>();
  const issues: RecordIssue[] = [];
  for (const name of names) {
    const problem = columnNameProblem(name, seen);
    if (problem) issues.push({ field: name, message: problem, type: 'value_error' });
    else seen.set(name.toLowerCase(), name);
  }
  if (names.length > maxColumns) issues.push({ message: `At most ${maxColumns} distinct fields per table`, type: 'too_long' });
  if (issues.length > 0) throw new RecordsRejected(issues.slice(0, maxReportedIssues));
}

/** Types inferred from strings alone (undefined: only nulls so far). */
function holdsText(type: ValueType | undefined): boolean {
  return type === undefined || type === 'VARCHAR' || type === 'DATE' || type === 'TIMESTAMPTZ';
}

function columnNameProblem(name: string, seen: Map<string, string>): string | undefined {
  if (name.length === 0) return 'Field names must not be empty';
  if (name.length > maxColumnNameLength) return `Field names have at most ${maxColumnNameLength} characters`;
  if (name.includes('\0')) return 'Field names must not contain NUL characters';
  const clash = seen.get(name.toLowerCase());
  if (clash !== undefined) return `Field "${name}" differs from "${clash}" only in case; column names are case-insensitive`;
  return undefined;
}
