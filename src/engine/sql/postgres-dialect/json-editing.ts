import type { CallRule, CallRules } from './calls';
import { literalArgument } from './calls';
import { pathKeys } from './json-path';
import type { Level } from './level';
import { visiblyJsonb } from './jsonb-operands';
import { sqlString, stringValue } from './literals';
import { macroArgument, operandsOf } from './operands';
import type { LevelRewrite, RewriteLog } from './pass';

/**
 * jsonb's editing operators and value equality, as calls of the macros in json-macros.ts. DuckDB's
 * JSON is text: `||` would concatenate the texts and `=` compare them, so both become jsonb's only
 * where an operand is visibly jsonb (a cast or literal, an arrow, a function that returns jsonb);
 * `#-` and a `-` that removes a key (a text operand) are jsonb's alone.
 */

/** `j - 'k'`, `j - 1`, `j - ARRAY['a', 'b']` (or `'{a,b}'::text[]`, a list by now), by the right operand's form. */
function deletion(level: Level, left: string, leftIsJson: boolean, from: number, to: number): string | null {
  const right = level.text(from, to);
  if (level.is(from, 'ARRAY') || level.group(from, '[')) return `pgx_jsonb_delete_keys(${left}, ${right})`;
  if (/^-?\s*\d+$/.test(right)) return leftIsJson ? `pgx_jsonb_delete_index(${left}, ${right})` : null;
  if (level.token(from, 'string') && from === to) return leftIsJson ? `pgx_jsonb_delete_key(${left}, ${right})` : `pgx_minus(${left}, ${right})`;
  return leftIsJson ? `pgx_jsonb_delete_key(${left}, ${right})` : null;
}

/** `j #- '{a,0}'`: each step of the path descends one level, the last removes. */
function pathDeletion(json: string, keys: readonly string[]): string {
  const [first, ...rest] = keys.map(sqlString) as [string, ...string[]];
  if (rest.length === 0) return `pgx_jsonb_remove(${json}, ${first})`;
  return `pgx_jsonb_descend(${json}, ${first}, ${pathDeletion(`pgx_jsonb_step(${json}, ${first})`, keys.slice(1))})`;
}

/** `jsonb_set(j, '{a,0}', v, create)`: each step descends one level, the last sets. */
function pathSet(json: string, keys: readonly string[], value: string, create: string, last = 'pgx_jsonb_put'): string {
  const [first, ...rest] = keys.map(sqlString) as [string, ...string[]];
  if (rest.length === 0) return `${last}(${json}, ${first}, ${value}, ${create})`;
  return `pgx_jsonb_descend(${json}, ${first}, ${pathSet(`pgx_jsonb_step(${json}, ${first})`, keys.slice(1), value, create, last)})`;
}

/** The end of the run of `||` operands starting at `start`, with every operand's bounds. */
function concatenationAt(level: Level, start: number): { from: number; to: number }[] {
  const operands = operandsOf(level);
  const terms = [{ from: start, to: operands.endOf(start) }];
  while (terms.at(-1)!.to !== -1 && level.op(terms.at(-1)!.to + 1, '||')) {
    const next = terms.at(-1)!.to + 2;
    terms.push({ from: next, to: operands.endOf(next) });
  }
  return terms.at(-1)!.to === -1 ? [] : terms;
}

/**
 * `j - 'a' - 'b' #- '{c}'`, folded left to right: each `-` or `#-` that removes from jsonb wraps what
 * precedes it; a subtraction stays one. Returns the chain's last position.
 */
function removals(level: Level, k: number, log: RewriteLog): number {
  const operands = operandsOf(level);
  const start = operands.startOf(k - 1);
  if (start === -1) return k;
  let sql = level.text(start, k - 1);
  // What precedes the first operator is visibly jsonb or not; a removal's result is jsonb (pgx_minus's may be a number).
  let json = visiblyJsonb(level, start, k - 1, true);
  let removed = false;
  let at = k;
  let end = k - 1;
  while (level.op(at, '-', '#-')) {
    const last = operands.endOf(at + 1);
    if (last === -1) break;
    const left = macroArgument(sql);
    const keys = level.op(at, '#-') && level.token(at + 1, 'string') ? pathKeys(stringValue(level.text(at + 1, at + 1)) ?? '') : null;
    const removal = level.op(at, '#-') ? (keys && keys.length > 0 ? pathDeletion(left, keys) : null) : deletion(level, left, json, at + 1, last);
    removed ||= removal !== null;
    json = removal !== null && !removal.startsWith('pgx_minus(');
    sql = removal ?? `${sql} ${level.text(at, last)}`;
    end = last;
    at = last + 1;
  }
  if (removed && level.canReplace(start, end) && level.replace(start, end, sql)) log.add('jsonb - / #- → removal');
  return end;
}

export const translateJsonEditing: LevelRewrite = (level, log) => {
  const operands = operandsOf(level);
  for (let k = 1; k + 1 < level.size; k += 1) {
    if (level.op(k, '||')) {
      const start = operands.startOf(k - 1);
      const terms = start === -1 ? [] : concatenationAt(level, start);
      if (terms.length < 2) continue;
      const end = terms.at(-1)!.to;
      const texts = terms.map((term) => macroArgument(level.text(term.from, term.to)));
      const sql = texts.slice(1).reduce((left, right) => `pgx_jsonb_concat(${left}, ${right})`, texts[0]!);
      if (terms.some((term) => visiblyJsonb(level, term.from, term.to, true)) && level.canReplace(start, end) && level.replace(start, end, sql))
        log.add('jsonb || → merge');
      k = end;
    } else if (level.op(k, '-', '#-')) {
      k = removals(level, k, log);
    } else if (level.op(k, '->', '->>') && (level.token(k + 1, 'number') || (level.op(k + 1, '-') && level.token(k + 2, 'number')))) {
      // `j ->> 0`: jsonb reads a scalar as an array of one.
      const start = operands.leftOf(k);
      const end = level.token(k + 1, 'number') ? k + 1 : k + 2;
      if (start === -1 || !level.canReplace(start, end)) continue;
      const sql = `pgx_jsonb_element${level.op(k, '->>') ? '_text' : ''}(${macroArgument(level.text(start, k - 1))}, ${level.text(k + 1, end)})`;
      if (level.replace(start, end, sql)) log.add('jsonb -> n on a scalar');
    } else if (level.op(k, '=', '<>', '!=')) {
      const start = operands.leftOf(k);
      const end = operands.rightOf(k);
      // `a = j ->> 'k'`: the right operand goes on through the other operators, which rightOf does not follow.
      if (start === -1 || end === -1 || !level.canReplace(start, end) || (level.op(end + 1) && !level.op(end + 1, ...comparisonOperators))) continue;
      const [left, right] = [macroArgument(level.text(start, k - 1)), macroArgument(level.text(k + 1, end))];
      if (!visiblyJsonb(level, start, k - 1, true) && !visiblyJsonb(level, k + 1, end, true)) continue;
      const sql = `${level.op(k, '=') ? '' : 'NOT '}pgx_jsonb_eq(${left}, ${right})`;
      if (level.replace(start, end, sql)) log.add('jsonb = by value');
    }
  }
};

const comparisonOperators = ['=', '<>', '!=', '<', '>', '<=', '>='];

/** A call of a one-argument macro. */
function unary(name: string, label: string): CallRule {
  return { label, rewrite: (call) => (call.argNodes.length === 1 ? `${name}(${macroArgument(call.args[0]!)})` : null) };
}

/** `name(j, '{a,0}', v [, flag])` at a literal path: the inner steps walked, the last one `last`. */
function pathEdit(name: string, flag: string, last: string): CallRule {
  return {
    label: `${name} → path steps`,
    rewrite(call) {
      if (call.argNodes.length < 3 || call.argNodes.length > 4) return null;
      const keys = pathKeys(literalArgument(call, 1) ?? '');
      if (keys === null || keys.length === 0) return null;
      return pathSet(macroArgument(call.args[0]!), keys, `CAST(${call.args[2]!} AS JSON)`, call.args[3] ?? flag, last);
    },
  };
}

/** jsonb functions that edit a value. */
export const jsonEditingRules: CallRules = {
  jsonb_set: pathEdit('jsonb_set', 'true', 'pgx_jsonb_put'),
  // jsonb_insert: a new array element before (or after) the position, or a new key, which may not exist yet.
  jsonb_insert: pathEdit('jsonb_insert', 'false', 'pgx_jsonb_insert'),
  jsonb_strip_nulls: unary('pgx_jsonb_strip_nulls', 'jsonb_strip_nulls → merge patch'),
  json_strip_nulls: unary('pgx_jsonb_strip_nulls', 'jsonb_strip_nulls → merge patch'),
  jsonb_pretty: unary('pgx_jsonb_pretty', 'jsonb_pretty → json_pretty, keys in jsonb order'),
  jsonb_array_length: unary('pgx_jsonb_array_length', 'jsonb_array_length of a non-array raises'),
  json_array_length: unary('pgx_jsonb_array_length', 'jsonb_array_length of a non-array raises'),
};
