import type { AstNode } from './parse-query';

/** One CTE of a query: where its name is written, and the name it runs under. */
export interface CteBinding {
  /** The name as a reference matches it: lower case (DuckDB's names are case-insensitive). */
  name: string;
  /**
   * The name the CTE runs under, unique in the query and unlike any catalog entry: should the scoping
   * here ever disagree with DuckDB's, a reference taken for this CTE names nothing else and fails.
   */
  runName: string;
  /** The `cte_map` entry that defines it (its `key` is the name). */
  entry: AstNode;
  /** Its RECURSIVE_CTE_NODE, when it is recursive (its `cte_name` is the name too). */
  recursiveNode?: AstNode;
  /** Recursive with `USING KEY`: its step may read `recurring.<name>`. */
  keyed: boolean;
}

/**
 * The CTE names visible at a point of the walk, as DuckDB's binder sees them: a name binds to the
 * innermost visible CTE of that name. Bindings are pushed when a scope opens and popped when it
 * closes, so a lookup costs one map access however deep the nesting.
 */
export class CteScope {
  private readonly visible = new Map<string, CteBinding[]>();

  bind(binding: CteBinding): void {
    const stack = this.visible.get(binding.name);
    if (stack) stack.push(binding);
    else this.visible.set(binding.name, [binding]);
  }

  unbind(binding: CteBinding): void {
    const stack = this.visible.get(binding.name);
    stack?.pop();
    if (stack?.length === 0) this.visible.delete(binding.name);
  }

  lookup(name: string): CteBinding | undefined {
    return this.visible.get(name.toLowerCase())?.at(-1);
  }
}
