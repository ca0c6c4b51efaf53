import { fromItemEnders, clauseAt, startsFromItem } from './clause';
import { itemName, postgresTypeName, selectItems } from './figure-name';
import { Level } from './level';
import { typeEnd } from './operands';
import { fragment, parseTree, render, type GroupNode, type SqlNode } from './token-tree';

/**
 * Column references that Postgres reads as jsonb where the statement alone does not show it: a
 * lake table's JSON column (pushed objects and arrays) is jsonb to a Postgres client, but `profile`
 * looks like any column. Given which names are JSON columns of the statement's tables, each such
 * reference in a position where jsonb reads differently from DuckDB's JSON (a cast to text, `->>`,
 * `#>>`, `->`, `||`, `-`, `#-`, `=`, `<>`, `@>`, `<@`, `?`) is marked `::jsonb`, so that every rule for
 * a visible jsonb applies to it unchanged; nothing else of the statement changes.
 *
 * A name is marked only where nothing in the statement may give it another meaning that reaches the
 * reference: a SELECT-list item of that name that is not the column itself (a CTE's or a derived
 * table's, seen from outside its brackets; its own level's ORDER BY, which sees the output names),
 * a FROM item's or CTE's alias or column list, a function's columns in FROM. When unsure, the
 * reference stays as written.
 */
export class JsonbPositions {
  private readonly nodes: SqlNode[];
  /** The references in jsonb positions that nothing in the statement may give another meaning. */
  private readonly references: { name: string; last: SqlNode }[] = [];

  constructor(sql: string) {
    this.nodes = parseTree(sql);
    const found: Found = { references: [], redefinitions: new Map() };
    visit(this.nodes, { parent: null }, false, found);
    for (const reference of found.references) {
      if (!(found.redefinitions.get(reference.name) ?? []).some((redefinition) => reaches(redefinition, reference))) this.references.push(reference);
    }
  }

  /** The names (lower case) of the references that may be marked, each once. */
  names(): string[] {
    return [...new Set(this.references.map((reference) => reference.name))];
  }

  /** The statement with each reference to one of `jsonColumns` (lower case) marked as jsonb; null when there is none. */
  marked(jsonColumns: ReadonlySet<string>): string | null {
    const marks = new Set(this.references.filter((reference) => jsonColumns.has(reference.name)).map((reference) => reference.last));
    return marks.size === 0 ? null : render(withMarks(this.nodes, marks));
  }
}

interface Scope {
  parent: Scope | null;
}

interface Reference {
  name: string;
  /** The last token of the reference (`c.profile`'s `profile`): the mark goes after it. */
  last: SqlNode;
  scope: Scope;
  /** In its level's ORDER BY, which sees the level's output names. */
  orderBy: boolean;
}

/** Something that gives a name another meaning: in a bracket (seen from outside it and from its ORDER BY), or anywhere (null). */
interface Redefinition {
  scope: Scope | null;
}

interface Found {
  references: Reference[];
  redefinitions: Map<string, Redefinition[]>;
}

function reaches(redefinition: Redefinition, reference: Reference): boolean {
  if (redefinition.scope === null) return true;
  if (redefinition.scope === reference.scope) return reference.orderBy;
  for (let scope = reference.scope.parent; scope; scope = scope.parent) if (scope === redefinition.scope) return false;
  return true;
}

function visit(nodes: readonly SqlNode[], scope: Scope, inCast: boolean, found: Found): void {
  const level = new Level(nodes);
  for (let k = 0; k < level.size; k += 1) {
    const group = level.group(k);
    if (group) visit(group.children, { parent: scope }, level.is(k - 1, 'CAST', 'TRY_CAST'), found);
  }
  const redefine = (name: string, where: Scope | null) => {
    const known = found.redefinitions.get(name);
    if (known) known.push({ scope: where });
    else found.redefinitions.set(name, [{ scope: where }]);
  };
  for (let k = 0; k < level.size; k += 1) {
    if (level.is(k, 'SELECT')) selectListNames(level, k, (name) => redefine(name, scope));
    else if (startsFromItem(level, k)) fromItemNames(level, k, (name) => redefine(name, null));
    else if (startsCteBody(level, k + 1)) cteNames(level, k, (name) => redefine(name, null));
  }
  for (let k = 0; k < level.size; k += 1) {
    const end = chainEnd(level, k);
    if (end === -1) continue;
    const reference = !level.punct(k - 1, '.') && !level.op(k - 1, '::') && !level.is(k - 1, 'AS') && !startsFromItem(level, k);
    if (reference && !level.group(end + 1) && !level.token(end + 1, 'string') && inJsonbPosition(level, k, end, inCast)) {
      found.references.push({ name: nameAt(level, end)!, last: level.node(end)!, scope, orderBy: clauseAt(level, k) === 'ORDER' });
    }
    k = end;
  }
}

/** Operators whose operand reads differently as jsonb, after it and before it. */
const operatorsAfter = ['->', '->>', '#>', '#>>', '||', '-', '#-', '=', '<>', '!=', '@>', '<@', '?|', '?&'];
const operatorsBefore = ['||', '=', '<>', '!=', '@>', '<@'];

function inJsonbPosition(level: Level, k: number, end: number, inCast: boolean): boolean {
  if (level.op(end + 1, ...operatorsAfter) || level.token(end + 1, 'param', '?')) return true;
  if (level.op(end + 1, '::') && isTextType(level, end + 2)) return true;
  // `CAST(profile AS text)`.
  if (inCast && k === 0 && level.is(end + 1, 'AS') && isTextType(level, end + 2)) return true;
  return level.op(k - 1, ...operatorsBefore);
}

/** `text`, `varchar` or `character varying` without a length, at `k`. */
function isTextType(level: Level, k: number): boolean {
  const end = typeEnd(level, k);
  if (end === -1 || level.group(end) || level.group(end, '[')) return false;
  const type = postgresTypeName(level, k, end);
  return type === 'text' || type === 'varchar';
}

/** The last position of the name chain (`a`, `c.profile`, `"s"."t"."c"`) starting at `k`, or -1. */
function chainEnd(level: Level, k: number): number {
  if (nameAt(level, k) === null) return -1;
  let end = k;
  while (level.punct(end + 1, '.') && nameAt(level, end + 2) !== null) end += 2;
  return end;
}

/** A word or quoted name, lower case (DuckDB binds names without regard to case), or null. */
function nameAt(level: Level, k: number): string | null {
  const node = level.node(k);
  if (node?.type !== 'token') return null;
  if (node.token.kind === 'word') return node.token.text.toLowerCase();
  return node.token.kind === 'quoted-ident' ? node.token.text.slice(1, -1).replaceAll('""', '"').toLowerCase() : null;
}

/** Names of the SELECT list at `k` whose items are not the column of that name itself. */
function selectListNames(level: Level, k: number, redefine: (name: string) => void): void {
  for (const item of selectItems(level, k)) {
    const named = itemName(level, item.from, item.to);
    if (named === null || named.column) continue;
    const name = named.name.toLowerCase();
    const expressionEnd = !named.alias ? item.to : level.is(item.to - 1, 'AS') ? item.to - 2 : item.to - 1;
    const end = chainEnd(level, item.from);
    if (end !== expressionEnd || nameAt(level, end) !== name) redefine(name);
  }
}

/** What a FROM item at `k` names: its alias and column list, or a function's columns. */
function fromItemNames(level: Level, k: number, redefine: (name: string) => void): void {
  let last = k;
  let calls: string | null = null;
  if (!level.group(k)) {
    const end = chainEnd(level, k);
    if (end === -1) return;
    last = end;
    if (level.group(end + 1)) [calls, last] = [nameAt(level, end), end + 1];
  }
  if (level.is(last + 1, 'WITH') && level.is(last + 2, 'ORDINALITY')) last += 2;
  const word = level.word(last + 1);
  const aliasAt = level.is(last + 1, 'AS') ? last + 2 : word !== null && !fromItemEnders.has(word) && word !== 'AT' ? last + 1 : -1;
  const alias = aliasAt === -1 ? null : nameAt(level, aliasAt);
  if (alias !== null) redefine(alias);
  const columns = alias === null ? null : level.group(aliasAt + 1);
  if (columns) namesIn(columns, redefine);
  else if (calls !== null) for (const name of [calls, 'key', 'value', 'ordinality']) redefine(name);
}

/** `AS (`, `AS MATERIALIZED (`, `AS NOT MATERIALIZED (` at `k`: a CTE's body follows. */
function startsCteBody(level: Level, k: number): boolean {
  if (!level.is(k, 'AS')) return false;
  const body = level.is(k + 1, 'NOT') ? k + 3 : level.is(k + 1, 'MATERIALIZED') ? k + 2 : k + 1;
  return level.group(body) !== null && (body === k + 1 || level.is(body - 1, 'MATERIALIZED'));
}

/** A CTE's name, or its column list and name, ending at `k`. */
function cteNames(level: Level, k: number, redefine: (name: string) => void): void {
  const columns = level.group(k);
  const nameAtK = columns ? k - 1 : k;
  const name = nameAt(level, nameAtK);
  if (name === null || !(level.is(nameAtK - 1, 'WITH', 'RECURSIVE') || level.punct(nameAtK - 1, ','))) return;
  redefine(name);
  if (columns) namesIn(columns, redefine);
}

/** Every name in a column list. */
function namesIn(group: GroupNode, redefine: (name: string) => void): void {
  const inner = new Level(group.children);
  for (let k = 0; k < inner.size; k += 1) {
    const name = nameAt(inner, k);
    if (name !== null) redefine(name);
  }
}

function withMarks(nodes: readonly SqlNode[], marks: ReadonlySet<SqlNode>): SqlNode[] {
  return nodes.flatMap((node) => {
    if (node.type === 'group') return [{ ...node, children: withMarks(node.children, marks) }];
    return marks.has(node) ? [node, ...fragment('::jsonb')] : [node];
  });
}
