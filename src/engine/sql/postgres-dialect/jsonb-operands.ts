import { Level } from './level';
import { castsOf, operandEnd } from './operands';
import type { GroupNode } from './token-tree';

/**
 * Whether an operand is visibly jsonb, read from its tokens (as the user wrote them or as translated
 * so far): a cast to jsonb (`::JSON` in capitals is a jsonb the type names rewrote; a JSON column of
 * a lake table is marked so, see json-columns.ts), a jsonb literal, a call of a function that returns
 * jsonb (by Postgres' name or the translation's), and, in parentheses or not, an expression of them:
 * `a || b` where a term is jsonb, `j -> 'k'` and `j #> '{k}'` of a jsonb, `j - 'k'` and `j #- '{k}'`
 * of a jsonb. `->>` and `#>>` give text. A column or anything else is not visibly jsonb.
 *
 * `loose` also takes an arrow chain (`->` last) on a bare name or a bracket as jsonb, as the editing
 * operators always have: `x -> 'a' || y` merges whatever x is.
 */
export function visiblyJsonb(level: Level, from: number, to: number, loose = false): boolean {
  if (from > to) return false;
  const first = operandEnd(level, from);
  if (first === -1) return false;
  // Beyond `to`, more postfixes of the same primary (`j::jsonb` of `j::jsonb::text`).
  if (first >= to) return primaryIsJsonb(level, from, to, loose);
  const terms: { from: number; to: number }[] = [{ from, to: first }];
  const operators: string[] = [];
  for (let end = first; end < to;) {
    const operator = level.op(end + 1) ? level.text(end + 1, end + 1) : '';
    if (!chainOperators.has(operator)) return false;
    const next = operandEnd(level, end + 2);
    if (next === -1 || next > to) return false;
    operators.push(operator);
    terms.push({ from: end + 2, to: next });
    end = next;
  }
  // `-` binds tighter than the other operators: only a chain of removals is read.
  if (operators.includes('-') && !operators.every((operator) => operator === '-' || operator === '#-')) return false;
  let jsonb = primaryIsJsonb(level, terms[0]!.from, terms[0]!.to, loose);
  operators.forEach((operator, i) => {
    const term = terms[i + 1]!;
    if (operator === '||') jsonb ||= primaryIsJsonb(level, term.from, term.to, loose);
    else if (operator === '->>' || operator === '#>>') jsonb = false;
    else if (loose && i === 0 && (operator === '->' || operator === '#>')) jsonb ||= bareOperand(level, terms[0]!.from, terms[0]!.to);
  });
  return jsonb;
}

/** The operators of a chain this reads: the other operators of jsonb and `-`. */
const chainOperators = new Set(['||', '->', '->>', '#>', '#>>', '#-', '-']);

/** Functions that return jsonb, by Postgres' name and by the name the translation gives them. */
const jsonbFunctions = new Set([
  'jsonb_build_object',
  'jsonb_build_array',
  'jsonb_object',
  'to_jsonb',
  'jsonb_set',
  'jsonb_set_lax',
  'jsonb_insert',
  'jsonb_strip_nulls',
  'jsonb_extract_path',
  'jsonb_agg',
  'jsonb_object_agg',
  'jsonb_path_query_first',
  'jsonb_path_query_array',
  'json_object',
  'json_array',
  'to_json',
  'json_extract',
  'json_merge_patch',
  'json',
  'pgx_jsonb_concat',
  'pgx_jsonb_delete_keys',
  'pgx_jsonb_delete_key',
  'pgx_jsonb_delete_index',
  'pgx_jsonb_put',
  'pgx_jsonb_insert',
  'pgx_jsonb_remove',
  'pgx_jsonb_descend',
  'pgx_jsonb_step',
  'pgx_jsonb_strip_nulls',
  'pgx_jsonb_sorted',
  'pgx_jsonb_element',
]);

/** A name (`j`, `t.j`) or a bracket: what an arrow chain of the editing operators may start from. */
function bareOperand(level: Level, from: number, to: number): boolean {
  if (from === to && level.group(from)) return true;
  for (let k = from; k <= to; k += 1) {
    const name = level.word(k) !== null || level.token(k, 'quoted-ident');
    if ((k - from) % 2 === 0 ? !name : !level.punct(k, '.')) return false;
  }
  return true;
}

/** One primary with its postfixes at `from..to`. */
function primaryIsJsonb(level: Level, from: number, to: number, loose: boolean): boolean {
  // The operand's own casts: a cast of it (`j::jsonb::text`) follows `to`.
  const last = castsOf(level, from)
    .filter((cast) => cast.typeLast <= to)
    .at(-1);
  if (last) return last.typeLast === to && isJsonbType(level, last.at + 1, last.typeLast, loose);
  const group = level.group(from);
  if (group) return from === to && groupIsJsonb(group, loose);
  const word = level.word(from);
  if (word === null) return false;
  if ((word === 'JSONB' || isUpperJson(level, from) || (loose && word === 'JSON')) && from + 1 === to && level.token(to, 'string')) return true;
  let name = from;
  while (level.punct(name + 1, '.') && level.word(name + 2) !== null) name += 2;
  const args = level.group(name + 1);
  if (!args) return false;
  if (level.is(name, 'CAST', 'TRY_CAST') && name === from) return name + 1 === to && castsToJsonb(args, loose);
  return jsonbFunctions.has(level.word(name)!.toLowerCase());
}

const groupAnswers = new WeakMap<GroupNode, { strict?: boolean; loose?: boolean }>();

/** A bracketed expression (not a subquery, not a row); each bracket is read once a pass. */
function groupIsJsonb(group: GroupNode, loose: boolean): boolean {
  const known = groupAnswers.get(group) ?? {};
  const key = loose ? 'loose' : 'strict';
  if (known[key] === undefined) {
    const inner = new Level(group.children);
    const first = inner.group(0);
    const query = startsQuery(inner) || (first !== null && startsQuery(new Level(first.children)));
    known[key] = !query && inner.size > 0 && visiblyJsonb(inner, 0, inner.size - 1, loose);
    groupAnswers.set(group, known);
  }
  return known[key]!;
}

function startsQuery(level: Level): boolean {
  return level.is(0, 'SELECT', 'WITH', 'VALUES', 'TABLE');
}

/** `CAST(x AS jsonb)`. */
function castsToJsonb(args: GroupNode, loose: boolean): boolean {
  const inner = new Level(args.children);
  const as = inner.size - 2;
  return as > 0 && inner.is(as, 'AS') && isJsonbType(inner, as + 1, inner.size - 1, loose);
}

/**
 * `jsonb`, or `JSON` in capitals: the translation writes jsonb so, and Postgres' json is written in
 * lower case (`loose` takes json in any case, as the editing operators always have).
 */
function isJsonbType(level: Level, from: number, to: number, loose: boolean): boolean {
  return from === to && (level.is(from, 'JSONB') || isUpperJson(level, from) || (loose && level.is(from, 'JSON')));
}

function isUpperJson(level: Level, k: number): boolean {
  const node = level.node(k);
  return node?.type === 'token' && node.token.text === 'JSON';
}
