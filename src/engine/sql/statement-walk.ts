import { CteScope, type CteBinding } from './cte-scope';
import { isExactNumber, type AstNode, type AstValue } from './parse-query';

/** Where a node sits in its parent, so that a rewrite can swap it in place. */
export interface Slot {
  parent: AstNode | AstValue[];
  key: string | number;
}

/** How deep a node sits: among expressions, and among subquery expressions (scalar, IN, EXISTS…). */
export interface Nesting {
  expressions: number;
  subqueries: number;
}

export type NodeVisitor = (node: AstNode, slot: Slot, scope: WalkScope, nesting: Nesting) => void;

/** What a visitor may ask about the CTEs visible where it stands. */
export interface WalkScope {
  /** The innermost visible CTE of that name. */
  lookup(name: string): CteBinding | undefined;
  /** Whether the walk is inside the recursive step of that CTE (where `recurring.<name>` reads its keyed rows). */
  inRecursiveStep(binding: CteBinding): boolean;
}

type Task = (Slot & { nesting: Nesting }) | (() => void);

/**
 * Visits every object node of a statement's parse tree once, depth first, in source order, knowing
 * at each node which CTEs are in scope the way DuckDB's binder resolves them:
 * - a query node's CTEs are visible in its body and in everything nested in it;
 * - each CTE's own definition sees the CTEs written before it in the same WITH, never itself or a later one;
 * - a recursive CTE (DuckDB makes one only of `WITH RECURSIVE … UNION [ALL]`) sees itself in its
 *   recursive step (the union's right side) only.
 * The walk keeps its own stack, so no nesting the parser accepts can overflow the call stack, and
 * tells the visitor how deep each node sits among expressions and subqueries.
 * Returns the query's CTEs, numbered in the order they are written.
 */
export function walkStatement(root: AstNode, visit: NodeVisitor): CteBinding[] {
  const scope = new CteScope();
  const steps = new Set<CteBinding>();
  const ownerOfRecursiveNode = new Map<AstNode, CteBinding>();
  const bindings: CteBinding[] = [];
  const walkScope: WalkScope = { lookup: (name) => scope.lookup(name), inRecursiveStep: (binding) => steps.has(binding) };
  const tasks: Task[] = [{ parent: [root], key: 0, nesting: { expressions: 0, subqueries: 0 } }];

  const childTasks = (node: AstNode, nesting: Nesting): Task[] => {
    const own = cteEntries(node).map((entry) => {
      const binding = bindingOf(entry, bindings.length + 1);
      bindings.push(binding);
      if (binding.recursiveNode) ownerOfRecursiveNode.set(binding.recursiveNode, binding);
      return binding;
    });
    const ordered: Task[] = [];
    own.forEach((binding, index) => {
      ordered.push({ parent: own[index]!.entry, key: 'value', nesting }, () => scope.bind(binding));
    });
    const self = node.type === 'RECURSIVE_CTE_NODE' ? ownerOfRecursiveNode.get(node) : undefined;
    for (const key of Object.keys(node)) {
      if (key === 'cte_map' && own.length > 0) continue;
      if (self && key === 'right') {
        ordered.push(
          () => (scope.bind(self), steps.add(self)),
          { parent: node, key, nesting },
          () => (scope.unbind(self), steps.delete(self)),
        );
      } else {
        ordered.push({ parent: node, key, nesting });
      }
    }
    for (const binding of [...own].reverse()) ordered.push(() => scope.unbind(binding));
    return ordered;
  };

  while (tasks.length > 0) {
    const task = tasks.pop()!;
    if (typeof task === 'function') {
      task();
      continue;
    }
    const value = (task.parent as Record<string | number, AstValue>)[task.key];
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1) tasks.push({ parent: value, key: index, nesting: task.nesting });
    } else if (value !== null && typeof value === 'object' && !isExactNumber(value)) {
      const nesting = nestingOf(value, task.nesting);
      visit(value, task, walkScope, nesting);
      const children = childTasks(value, nesting);
      for (let index = children.length - 1; index >= 0; index -= 1) tasks.push(children[index]!);
    }
  }
  return bindings;
}

/** An expression is a node with a `class`; a subquery expression one of class SUBQUERY. */
function nestingOf(node: AstNode, outer: Nesting): Nesting {
  if (typeof node.class !== 'string') return outer;
  return { expressions: outer.expressions + 1, subqueries: outer.subqueries + (node.class === 'SUBQUERY' ? 1 : 0) };
}

/** The `cte_map` entries of a query node, in the order they are written. */
function cteEntries(node: AstNode): AstNode[] {
  const map = (node.cte_map as AstNode | undefined)?.map;
  return Array.isArray(map) ? (map.filter((entry) => entry !== null && typeof entry === 'object' && !Array.isArray(entry)) as AstNode[]) : [];
}

function bindingOf(entry: AstNode, number: number): CteBinding {
  const name = String(entry.key).toLowerCase();
  const definition = ((entry.value as AstNode | undefined)?.query as AstNode | undefined)?.node as AstNode | undefined;
  const recursive = definition?.type === 'RECURSIVE_CTE_NODE' && String(definition.cte_name).toLowerCase() === name ? definition : undefined;
  const keys = recursive?.key_targets;
  return { name, runName: `__cte_${number}`, entry, recursiveNode: recursive, keyed: Array.isArray(keys) && keys.length > 0 };
}
