/**
 * The methods an app serves on a path, for a 405's Allow header. Where route patterns overlap
 * (`/query/tables/:table_name/metadata` and `/query/tables/:schema_name/:table_name`), the ones with the
 * most literal segments name the resource, as the router prefers them too.
 */
export function routeMethods(routes: () => readonly { method: string; path: string }[]): (path: string) => string[] {
  let table: { pattern: RegExp; literals: number; method: string }[] | undefined;
  return (path) => {
    // Built on first use: the routes are all there once the app answers requests.
    table ??= routes().map((route) => ({ pattern: patternOf(route.path), literals: literalSegments(route.path), method: route.method }));
    const matching = table.filter((entry) => entry.pattern.test(path));
    const mostSpecific = Math.max(...matching.map((entry) => entry.literals));
    return [...new Set(matching.filter((entry) => entry.literals === mostSpecific).map((entry) => entry.method))];
  };
}

function literalSegments(routePath: string): number {
  return routePath.split('/').filter((segment) => segment && !segment.startsWith(':') && segment !== '*').length;
}

function patternOf(routePath: string): RegExp {
  const escaped = routePath
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}$`);
}
