import { Level } from './level';
import { sqlString, stringValue } from './literals';
import { typeEnd } from './operands';
import type { LevelRewrite, RewriteLog } from './pass';
import { arrayTextToList } from './pg-array-literal';
import type { SqlNode } from './token-tree';

/**
 * Type names whose meaning differs. `jsonb` is DuckDB's `json`. A bare `numeric` is arbitrary
 * precision in Postgres but DECIMAL(18,3) in DuckDB, which silently rounds to three decimals, so it
 * becomes DECIMAL(38,10). A bare `float` is double precision in Postgres and single in DuckDB.
 */
function replacementType(level: Level, k: number): { text: string; name: string } | null {
  const word = level.word(k);
  const sized = level.group(k + 1) !== null;
  if (word === 'JSONB') return { text: 'JSON', name: 'jsonb type → json' };
  if ((word === 'NUMERIC' || word === 'DECIMAL') && !sized) return { text: 'DECIMAL(38,10)', name: 'unconstrained numeric → DECIMAL(38,10)' };
  if (word === 'FLOAT' && !sized) return { text: 'DOUBLE', name: 'float → double' };
  if (word === 'FLOAT' && sized) {
    // float(p): up to 24 bits of precision is single precision, more is double.
    const bits = Number(level.text(k + 1, k + 1).slice(1, -1));
    return { text: bits <= 24 ? 'REAL' : 'DOUBLE', name: 'float → double' };
  }
  return null;
}

function rewriteTypeAt(level: Level, k: number, log: RewriteLog): void {
  const replacement = replacementType(level, k);
  if (!replacement) return;
  const end = level.word(k) === 'FLOAT' && level.group(k + 1) ? k + 1 : k;
  if (level.replace(k, end, replacement.text)) log.add(replacement.name);
}

/** `'{1,2}'::int[]`: Postgres array text does not cast to a DuckDB list, a list literal does. */
function rewriteArrayText(level: Level, castAt: number, log: RewriteLog): void {
  const literal = level.node(castAt - 1);
  if (literal?.type !== 'token' || literal.token.kind !== 'string') return;
  const end = typeEnd(level, castAt + 1);
  if (end === -1 || !level.group(end, '[')) return;
  const value = stringValue(literal.token.text);
  const list = value === null ? null : arrayTextToList(value);
  if (list === null) return;
  // `int[]` is an array of any dimensions in Postgres; a DuckDB list of lists is `INTEGER[][]`.
  const depth = /^\[*/.exec(list)![0].length;
  let written = 0;
  for (let j = castAt + 1; j <= end; j += 1) if (level.group(j, '[')) written += 1;
  const replaced =
    depth > written && level.canReplace(castAt - 1, end)
      ? level.replace(castAt - 1, end, `${list}::${level.text(castAt + 1, end)}${'[]'.repeat(depth - written)}`)
      : level.replace(castAt - 1, castAt - 1, list);
  if (replaced) log.add("array text '{…}' → list literal");
}

/**
 * `'{"a": 1, "a": 2}'::jsonb`: a key written twice keeps its last value in Postgres (jsonb keeps
 * that one, and json's operators find it); DuckDB's JSON functions find the first. The literal is
 * written once more without the repeated keys.
 */
function lastKeysWin(level: Level, k: number, log: RewriteLog): void {
  const value = level.token(k, 'string') ? stringValue(level.text(k, k)) : null;
  if (value === null || !value.includes('{')) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return;
  }
  const written = value.match(/"(?:[^"\\]|\\.)*"\s*:/g)?.length ?? 0;
  if (written !== keyCount(parsed) && level.replace(k, k, sqlString(JSON.stringify(parsed)))) log.add('jsonb literal: the last of a repeated key');
}

function keyCount(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((total: number, item) => total + keyCount(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  return Object.values(value).reduce((total: number, item) => total + 1 + keyCount(item), 0);
}

/** The nodes of a CAST group with the type after its last top-level AS rewritten. */
function rewriteCastGroup(children: readonly SqlNode[], log: RewriteLog): SqlNode[] | null {
  const inner = new Level(children, log);
  for (let k = inner.size - 1; k > 0; k -= 1) {
    if (inner.is(k, 'AS') && typeEnd(inner, k + 1) === inner.size - 1) {
      rewriteTypeAt(inner, k + 1, log);
      break;
    }
  }
  const result = inner.result();
  return result.length === children.length && result.every((node, i) => node === children[i]) ? null : result;
}

export const translateTypeNames: LevelRewrite = (level, log) => {
  for (let k = 0; k < level.size; k += 1) {
    if (level.op(k, '::')) {
      rewriteArrayText(level, k, log);
      if (level.is(k + 1, 'JSON', 'JSONB')) lastKeysWin(level, k - 1, log);
      rewriteTypeAt(level, k + 1, log);
    } else if (level.is(k, 'JSONB') && level.token(k + 1, 'string') && !level.op(k - 1, '::')) {
      // A typed literal: jsonb '{"a": 1}'.
      if (level.replace(k, k, 'JSON')) log.add('jsonb type → json');
    } else if (level.is(k, 'CAST', 'TRY_CAST') && level.group(k + 1)) {
      const group = level.group(k + 1)!;
      const children = rewriteCastGroup(group.children, log);
      if (children) level.replace(k + 1, k + 1, [{ ...group, children }]);
    }
  }
};
