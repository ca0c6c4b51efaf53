/** What the graph needs of a transform. */
export interface GraphNode {
  id: string;
  name: string;
  target: string;
  /** Transform ids named explicitly. */
  dependsOn: string[];
  /** `schema.table` names its SQL reads. */
  reads: string[];
}

export interface Edge {
  /** Runs before `to`. */
  from: string;
  to: string;
}

/**
 * The transforms of a workspace as a dependency graph: a transform depends on the ones it names in
 * `depends_on` and on every transform whose target table its SQL reads. Orders are deterministic:
 * among transforms ready at the same time, the one created first comes first.
 */
export class TransformGraph {
  readonly nodes: GraphNode[];
  private readonly byId = new Map<string, GraphNode>();
  private readonly upstreamOf = new Map<string, Set<string>>();
  private readonly downstreamOf = new Map<string, Set<string>>();

  constructor(nodes: GraphNode[]) {
    this.nodes = nodes;
    for (const node of nodes) {
      this.byId.set(node.id, node);
      this.upstreamOf.set(node.id, new Set());
      this.downstreamOf.set(node.id, new Set());
    }
    const byTarget = new Map(nodes.map((node) => [node.target, node.id]));
    for (const node of nodes) {
      const inferred = node.reads.flatMap((table) => {
        const id = byTarget.get(table);
        return id === undefined ? [] : [id];
      });
      for (const dependency of [...node.dependsOn, ...inferred]) {
        if (!this.byId.has(dependency)) continue;
        this.upstreamOf.get(node.id)!.add(dependency);
        this.downstreamOf.get(dependency)!.add(node.id);
      }
    }
  }

  node(id: string): GraphNode | undefined {
    return this.byId.get(id);
  }

  dependencies(id: string): GraphNode[] {
    return [...(this.upstreamOf.get(id) ?? [])].map((dependency) => this.byId.get(dependency)!);
  }

  dependents(id: string): GraphNode[] {
    return [...(this.downstreamOf.get(id) ?? [])].map((dependent) => this.byId.get(dependent)!);
  }

  edges(): Edge[] {
    return this.nodes.flatMap((node) => [...this.upstreamOf.get(node.id)!].map((from) => ({ from, to: node.id })));
  }

  /** A cycle as the names along it, each depending on the next (the first repeated at the end), or undefined. */
  findCycle(): string[] | undefined {
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (id: string): string[] | undefined => {
      state.set(id, 'open');
      path.push(id);
      for (const next of this.upstreamOf.get(id)!) {
        if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next].map((step) => this.byId.get(step)!.name);
        if (!state.has(next)) {
          const found = visit(next);
          if (found) return found;
        }
      }
      path.pop();
      state.set(id, 'done');
      return undefined;
    };
    for (const node of this.nodes) {
      if (state.has(node.id)) continue;
      const found = visit(node.id);
      if (found) return found;
    }
    return undefined;
  }

  /** The ids in an order where every transform comes after its dependencies (the graph has no cycle). */
  order(ids: Iterable<string> = this.byId.keys()): string[] {
    const wanted = new Set(ids);
    const position = new Map(this.nodes.map((node, index) => [node.id, index]));
    const waiting = new Map([...wanted].map((id) => [id, [...this.upstreamOf.get(id)!].filter((dependency) => wanted.has(dependency)).length]));
    const ready = [...wanted].filter((id) => waiting.get(id) === 0);
    const ordered: string[] = [];
    while (ready.length > 0) {
      ready.sort((a, b) => position.get(a)! - position.get(b)!);
      const id = ready.shift()!;
      ordered.push(id);
      for (const dependent of this.downstreamOf.get(id)!) {
        if (!wanted.has(dependent)) continue;
        const left = waiting.get(dependent)! - 1;
        waiting.set(dependent, left);
        if (left === 0) ready.push(dependent);
      }
    }
    return ordered;
  }

  /** The ids and everything they depend on, transitively. */
  withUpstream(ids: Iterable<string>): Set<string> {
    return this.closure(ids, this.upstreamOf);
  }

  /** The ids and everything that depends on them, transitively. */
  withDownstream(ids: Iterable<string>): Set<string> {
    return this.closure(ids, this.downstreamOf);
  }

  /** Dependencies restricted to the given ids: what a run of those transforms waits for. */
  dependenciesWithin(id: string, ids: Set<string>): string[] {
    return [...this.upstreamOf.get(id)!].filter((dependency) => ids.has(dependency));
  }

  private closure(ids: Iterable<string>, links: Map<string, Set<string>>): Set<string> {
    const seen = new Set<string>();
    const pending = [...ids];
    for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
      if (seen.has(id)) continue;
      seen.add(id);
      pending.push(...(links.get(id) ?? []));
    }
    return seen;
  }
}
