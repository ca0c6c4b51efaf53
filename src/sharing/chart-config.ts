import type { ValidationIssue } from '../errors/app-error';
import type { QueryColumn } from '../engine/sql/query-runner';

export const chartTypes = ['bar', 'line', 'area', 'pie', 'scatter', 'table', 'number'] as const;
export type ChartType = (typeof chartTypes)[number];

/** What a chart draws from its query's result, by column name. */
export interface ChartConfig {
  /** The category, time or x axis; a pie's labels. */
  x?: string;
  /** The measured columns; a pie and a number take one. */
  y?: string[];
  /** A column whose values split one measure into series (bar, line, area, scatter). */
  series?: string;
  /** Bars or areas on top of each other instead of side by side. */
  stacked?: boolean;
  /** A table's columns, in order (all of them when absent). */
  columns?: string[];
}

type Field = keyof ChartConfig;

/** Per chart type: the fields it needs, and every field it reads. */
const rules: Record<ChartType, { requires: Field[]; reads: Field[]; oneY?: boolean; numericY: boolean }> = {
  bar: { requires: ['x', 'y'], reads: ['x', 'y', 'series', 'stacked'], numericY: true },
  line: { requires: ['x', 'y'], reads: ['x', 'y', 'series', 'stacked'], numericY: true },
  area: { requires: ['x', 'y'], reads: ['x', 'y', 'series', 'stacked'], numericY: true },
  scatter: { requires: ['x', 'y'], reads: ['x', 'y', 'series'], numericY: true },
  pie: { requires: ['x', 'y'], reads: ['x', 'y'], oneY: true, numericY: true },
  number: { requires: ['y'], reads: ['y'], oneY: true, numericY: false },
  table: { requires: [], reads: ['columns'], numericY: false },
};

const numericType = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL(\(\d+,\s*\d+\))?)$/;

export function isNumericType(type: string): boolean {
  return numericType.test(type);
}

/**
 * Holds a chart's config against its type and the columns its query returns (known from planning the
 * query, without running it): each field the type needs is there, no field it does not read is, and
 * every column named is one of the result's; measures of a drawn chart are numeric.
 */
export function chartConfigIssues(type: ChartType, config: ChartConfig, columns: QueryColumn[]): ValidationIssue[] {
  const rule = rules[type];
  const issues: ValidationIssue[] = [];
  const at = (field: Field, ...rest: (string | number)[]) => ['body', 'config', field, ...rest];
  for (const field of rule.requires) {
    if (config[field] === undefined || (Array.isArray(config[field]) && config[field].length === 0))
      issues.push({ loc: at(field), msg: `A ${type} chart needs ${field}`, type: 'missing' });
  }
  for (const field of Object.keys(config) as Field[]) {
    if (config[field] !== undefined && !rule.reads.includes(field))
      issues.push({ loc: at(field), msg: `A ${type} chart does not use ${field}`, type: 'extra_forbidden' });
  }
  if (rule.oneY && config.y && config.y.length > 1) issues.push({ loc: at('y'), msg: `A ${type} chart shows one column`, type: 'too_long' });
  if (config.series !== undefined && config.y && config.y.length > 1)
    issues.push({ loc: at('series'), msg: 'A chart split by series shows one y column', type: 'value_error' });
  const types = new Map(columns.map((column) => [column.name, column.type]));
  const named: [string, (string | number)[], boolean][] = [];
  if (config.x !== undefined) named.push([config.x, at('x'), false]);
  if (config.series !== undefined) named.push([config.series, at('series'), false]);
  (config.y ?? []).forEach((column, index) => named.push([column, at('y', index), rule.numericY]));
  (config.columns ?? []).forEach((column, index) => named.push([column, at('columns', index), false]));
  for (const [column, loc, numeric] of named) {
    const columnType = types.get(column);
    if (columnType === undefined) {
      issues.push({
        loc,
        msg: `The query's result has no column "${column}" (it has ${[...types.keys()].map((name) => `"${name}"`).join(', ')})`,
        type: 'value_error',
      });
    } else if (numeric && !isNumericType(columnType)) {
      issues.push({ loc, msg: `The column "${column}" is ${columnType}; a ${type} chart measures numbers`, type: 'value_error' });
    }
  }
  return issues;
}
