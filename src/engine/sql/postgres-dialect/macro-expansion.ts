import { duckdbMacroDefinitions } from './duckdb-macros';
import { macroDefinitions } from './macros';
import { translationTooComplex } from './pass';
import { isGroup, isToken, meaningful, parseTree, splitArguments, wordOf, type GroupNode, type SqlNode } from './token-tree';

/**
 * How large a statement grows when DuckDB binds it. DuckDB expands a macro by putting each argument
 * in place of every use of its parameter, so a body that uses a parameter six times (width_bucket's
 * `x`) copies its argument six times, and nested calls multiply the copies: 20 nested calls are 6^20
 * nodes, which DuckDB's binder works through for minutes. The translation's budget counts only the
 * characters its own rewrites write; this counts what the macros will write, from their definitions.
 *
 * A macro's expanded size is linear in its arguments' sizes: its body's nodes (the macros it calls
 * expanded in turn) plus, for each parameter, the uses of the parameter times its argument's size.
 * The coefficients are read from each definition by sizing its body with one parameter at a time
 * counted as one node and the others as none; an overloaded macro takes the largest of its overloads'.
 */
interface Shape {
  /** Nodes of the body with every use of a parameter left out. */
  body: number;
  /** Per parameter, by position: how many times the body (and the macros it calls) copy it. */
  copies: readonly number[];
}

/** What sizing a run of nodes needs to know. */
interface Sizing {
  /** Inside a macro's body: the size each parameter (upper case) stands for. Empty in a statement. */
  parameters: ReadonlyMap<string, number>;
  /** A size beyond which the statement is refused at once (so no sum grows past what a number holds). */
  limit: number;
  /** The sizes of a group's comma-separated parts, once measured: a rewrite may put the same nodes in a statement twice. */
  measured?: WeakMap<GroupNode, number[]>;
}

/** Each macro's definition by its name in upper case, as a statement's words are compared: DuckDB's own, then the dialect's. */
const definitions = new Map([
  ...duckdbMacroDefinitions.map((definition) => [/^\w+/.exec(definition)![0].toUpperCase(), definition] as const),
  ...[...macroDefinitions].map(([name, definition]) => [name.toUpperCase(), definition] as const),
]);
const shapes = new Map<string, Shape | null>();

/**
 * The names (upper case) a statement must hold, as a word or a quoted identifier (`"PGX_UPPER`), for
 * any of its calls to be a macro: without one of them its expanded size is its own, and the
 * translation skips the walk.
 */
export const macroNames: readonly string[] = [...definitions.keys()].flatMap((name) => [name, `"${name}`]);

/**
 * The number of nodes DuckDB binds for a statement (its translated token tree) once every macro
 * call in it is expanded. Beyond `limit` it refuses the statement with QUERY_TOO_COMPLEX, as the
 * translation's own budget does.
 */
export function expandedSize(nodes: readonly SqlNode[], limit = Number.POSITIVE_INFINITY): number {
  return sizeOf(nodes, { parameters: new Map(), limit, measured: new WeakMap() });
}

/** A macro's shape, read from its definition once; null for a name that is no macro. */
export function macroShape(name: string): Shape | null {
  const word = name.toUpperCase();
  const definition = definitions.get(word);
  if (definition === undefined) return null;
  if (!shapes.has(word)) {
    // Marked before the body is read: a macro that reached itself would be sized as a plain call.
    shapes.set(word, null);
    shapes.set(word, definitionShape(definition));
  }
  return shapes.get(word)!;
}

/**
 * Sizes one bracket level: a token is one node, a group one plus its children, a macro call its
 * expansion. `a.f(b)` may be DuckDB's call chaining, `f(a, b)`: a macro called so takes the operand
 * before the dot as its first argument (or, when that is a schema's name, none: the larger counts).
 */
function sizeOf(nodes: readonly SqlNode[], sizing: Sizing): number {
  const items = meaningful(nodes);
  let total = 0;
  /** The operand that ends at the current item: `x`, `f(x)`, `(…)`, `x[1]`, `a.b`. */
  let operand = 0;
  let afterDot = false;
  for (let k = 0; k < items.length; k += 1) {
    const node = items[k]!;
    if (isToken(node, 'punct', '.')) {
      total = bounded(total + 1, sizing);
      operand += 1;
      afterDot = true;
      continue;
    }
    const word = nameOf(node);
    const call = word === null ? undefined : items[k + 1];
    let size: number;
    const chained = afterDot || isGroup(node, '[');
    if (word !== null && isGroup(call)) {
      k += 1;
      const shape = call.closed ? macroShape(word) : null;
      const args = partSizes(call, sizing);
      if (shape === null) size = 1 + groupSize(args);
      else if (!afterDot) size = expand(shape, args);
      else {
        // The operand becomes the first argument, counted inside the expansion instead of before it.
        size = Math.max(expand(shape, [operand, ...args]) - operand, expand(shape, args));
      }
    } else if (node.type === 'group') size = groupSize(partSizes(node, sizing));
    else if (word !== null && !afterDot && sizing.parameters.has(word)) size = sizing.parameters.get(word)!;
    else size = 1;
    total = bounded(total + size, sizing);
    operand = chained ? operand + size : size;
    afterDot = false;
  }
  return total;
}

/** The name a word or a quoted identifier spells, in upper case: DuckDB matches names regardless of case, quoted or not. */
function nameOf(node: SqlNode | undefined): string | null {
  if (node?.type !== 'token' || node.token.kind !== 'quoted-ident') return wordOf(node);
  return node.token.text.startsWith('"') ? node.token.text.slice(1, -1).replaceAll('""', '"').toUpperCase() : null;
}

/** The sizes of a group's comma-separated parts (a call's arguments). */
function partSizes(group: GroupNode, sizing: Sizing): number[] {
  const known = sizing.measured?.get(group);
  if (known !== undefined) return known;
  const sizes = splitArguments(group.children).map((part) => sizeOf(part, sizing));
  sizing.measured?.set(group, sizes);
  return sizes;
}

/** A group's brackets count one, its parts and the commas between them what they are. */
function groupSize(parts: readonly number[]): number {
  return parts.reduce((total, part) => total + part, 1 + Math.max(parts.length - 1, 0));
}

function expand(shape: Shape, args: readonly number[]): number {
  // An argument beyond the parameters (DuckDB refuses the call) counts once.
  return args.reduce((size, arg, index) => size + (shape.copies[index] ?? 1) * arg, shape.body);
}

function bounded(size: number, sizing: Sizing): number {
  if (size > sizing.limit) {
    throw translationTooComplex(`Translating the query to DuckDB SQL would make more than ${sizing.limit} expression nodes once its functions are expanded`);
  }
  return size;
}

/** The shape of `name(p, …) AS body[, (p, …) AS body]…`: the largest of its overloads'. */
export function definitionShape(definition: string): Shape {
  let body = 0;
  const copies: number[] = [];
  for (const overload of overloadsOf(definition)) {
    const none = new Map(overload.parameters.map((parameter) => [parameter, 0]));
    const base = sizeOf(overload.body, { parameters: none, limit: Number.POSITIVE_INFINITY });
    body = Math.max(body, base);
    overload.parameters.forEach((parameter, index) => {
      const one = new Map(none).set(parameter, 1);
      const used = sizeOf(overload.body, { parameters: one, limit: Number.POSITIVE_INFINITY }) - base;
      copies[index] = Math.max(copies[index] ?? 0, used);
    });
  }
  return { body, copies };
}

interface Overload {
  /** Parameter names, upper case, in order. */
  parameters: string[];
  body: SqlNode[];
}

/** A definition's overloads: each `(parameters) AS body`; a comma inside a body stays in the body. */
function overloadsOf(definition: string): Overload[] {
  const overloads: Overload[] = [];
  for (const segment of splitArguments(parseTree(definition))) {
    const items = meaningful(segment);
    const at = wordOf(items[0]) !== null && isGroup(items[1]) ? 1 : 0;
    const parameters = items[at];
    const last = overloads[overloads.length - 1];
    if (isGroup(parameters) && wordOf(items[at + 1]) === 'AS') {
      const names = splitArguments(parameters.children).map((parameter) => nameOf(meaningful(parameter)[0]) ?? '');
      overloads.push({ parameters: names, body: segment.slice(segment.indexOf(items[at + 1]!) + 1) });
    } else if (last) {
      last.body.push(...parseTree(','), ...segment);
    }
  }
  return overloads;
}
