import { Elysia } from 'elysia';

/** What the rule reads of a route: its method, its path pattern and its 201 schema. */
export interface LocatableRoute {
  method: string;
  path: string;
  hooks: { response?: unknown };
}

/**
 * Where a 201 answer's resource lives, derived from the route table rather than declared by each
 * route: the item route under the collection the POST went to (`POST /charts` → `/charts/{name}`,
 * named by the answer's field of that name, or its `id` for a `…_id` parameter), or the answer's own
 * `url` (a published link). A route added later follows the same rule.
 */
export type LocationRule = { kind: 'item'; itemPath: string; field: string } | { kind: 'url' };

export function locationRule(route: LocatableRoute, routes: readonly LocatableRoute[]): LocationRule | undefined {
  if (route.method !== 'POST') return undefined;
  const created = createdSchema(route.hooks.response);
  if (!created) return undefined;
  const item = routes.find((candidate) => candidate.method !== 'POST' && new RegExp(`^${escape(route.path)}/:[^/]+$`).test(candidate.path));
  if (item) {
    const param = item.path.slice(route.path.length + 2);
    const field = param in created ? param : param.endsWith('_id') && 'id' in created ? 'id' : undefined;
    if (field) return { kind: 'item', itemPath: item.path, field };
  }
  return 'url' in created ? { kind: 'url' } : undefined;
}

/** The Location of one answer: the item path with the request's parameters and the answer's field, or its URL. */
export function locationOf(rule: LocationRule, params: Record<string, string>, body: Record<string, unknown>): string | undefined {
  if (rule.kind === 'url') return typeof body.url === 'string' ? body.url : undefined;
  const value = body[rule.field];
  if (typeof value !== 'string' || value === '') return undefined;
  const filled = rule.itemPath.replace(/:([^/]+)/g, (whole, name: string) => (Object.hasOwn(params, name) ? encodeURIComponent(params[name]!) : whole));
  return filled.replace(/\/:[^/]+$/, `/${encodeURIComponent(value)}`);
}

/** Sends the Location of every 201 answer the rule can place. */
export function createdLocations(routes: () => readonly LocatableRoute[]) {
  let rules: Map<string, LocationRule | undefined> | undefined;
  const ruleOf = (path: string) => {
    rules ??= new Map(
      routes()
        .filter((route) => route.method === 'POST')
        .map((route) => [route.path, locationRule(route, routes())]),
    );
    return rules.get(path);
  };
  return new Elysia({ name: 'created-locations' }).onAfterHandle({ as: 'global' }, ({ request, route, set, params, response }) => {
    if (set.status !== 201 || request.method !== 'POST' || !response || typeof response !== 'object') return;
    const rule = ruleOf(route);
    const location = rule && locationOf(rule, (params ?? {}) as Record<string, string>, response as Record<string, unknown>);
    if (location) set.headers.location = location;
  });
}

function createdSchema(response: unknown): Record<string, unknown> | undefined {
  if (!response || typeof response !== 'object') return undefined;
  const schema = (response as Record<string, unknown>)['201'] as { properties?: Record<string, unknown> } | undefined;
  return schema?.properties;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
