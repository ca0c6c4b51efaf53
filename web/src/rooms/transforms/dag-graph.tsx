import { useMemo } from 'preact/hooks';
import { layoutDag, nodeSize } from './dag-layout';
import type { Dag, RunStatus } from './transform-api';

interface Props {
  dag: Dag;
  /** The state each node shows: its run in the run being watched, else its last run's. */
  states: Map<string, RunStatus | null>;
  selected: Set<string>;
  onToggle: (id: string) => void;
}

const stateWords: Record<string, string> = { never: 'never run' };

/** Text cut to what fits in a node (the full text is in the node's accessible name and its title). */
const fit = (text: string, characters: number) => (text.length > characters ? `${text.slice(0, characters - 1)}…` : text);

/**
 * The transforms as a graph, drawn in SVG from the DAG's edges: each node its name, target table and
 * state (coloured by class, with the word beside it), stale ones marked; each node is a checkbox a
 * click, Space or Enter toggles, to run only what is chosen.
 */
export function DagGraph({ dag, states, selected, onToggle }: Props) {
  const layout = useMemo(() => layoutDag(dag.order, dag.edges), [dag]);
  const nameOf = new Map(dag.nodes.map((node) => [node.id, node.name]));
  if (dag.nodes.length === 0) return <p>No transforms yet.</p>;
  return (
    <div class="dag-scroll">
      <svg
        class="dag"
        width={layout.width}
        height={layout.height}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        role="group"
        aria-label="Transforms in dependency order: choose the ones to run"
      >
        <defs>
          <marker id="dag-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" class="dag-arrow" />
          </marker>
        </defs>
        {layout.edges.map((edge) => (
          <path key={`${edge.from}-${edge.to}`} d={edge.path} class="dag-edge" marker-end="url(#dag-arrow)">
            <title>
              {nameOf.get(edge.from)} runs before {nameOf.get(edge.to)}
            </title>
          </path>
        ))}
        {dag.nodes.map((node) => {
          const place = layout.nodes.get(node.id);
          if (!place) return null;
          const state = states.get(node.id) ?? 'never';
          const word = stateWords[state] ?? state;
          const chosen = selected.has(node.id);
          const toggle = (event: KeyboardEvent) => {
            if (event.key !== ' ' && event.key !== 'Enter') return;
            event.preventDefault();
            onToggle(node.id);
          };
          return (
            <g
              key={node.id}
              class={`dag-node state-${state}${chosen ? ' chosen' : ''}${node.stale ? ' stale' : ''}`}
              transform={`translate(${place.x} ${place.y})`}
              role="checkbox"
              aria-checked={chosen}
              aria-label={`${node.name}, writes ${node.target_table}: ${word}${node.stale ? ', stale' : ''}`}
              // Lower case: an SVG element takes its attributes as written, and only `tabindex` makes it focusable.
              tabindex={0}
              data-node={node.name}
              onClick={() => onToggle(node.id)}
              onKeyDown={toggle}
            >
              <title>{`${node.name} → ${node.target_table}`}</title>
              <rect width={nodeSize.width} height={nodeSize.height} rx="8" class="dag-box" />
              <rect width="6" height={nodeSize.height} rx="3" class="dag-state-bar" />
              <text x="16" y="22" class="dag-name">
                {fit(node.name, 22)}
              </text>
              <text x="16" y="40" class="dag-table">
                {fit(node.target_table, 28)}
              </text>
              <text x="16" y="56" class="dag-state">
                {word}
                {node.stale ? ' · stale' : ''}
                {chosen ? ' · chosen' : ''}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
