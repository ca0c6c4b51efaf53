import { SourceError } from '../source-error';

export type PaginationStyle = 'none' | 'page_number' | 'offset' | 'cursor' | 'link_header';

export interface Pagination {
  style: PaginationStyle;
  page_param: string;
  start_page: number;
  size_param?: string;
  page_size: number;
  offset_param: string;
  limit_param: string;
  cursor_param: string;
  /** Dotted path of the next cursor in the answer's body. */
  cursor_path: string;
}

/** Which page comes next; `url` (Link header) is absolute, the others set parameters of the stream's URL. */
export type PageState = { page: number } | { offset: number } | { cursor: string | null } | { url: string } | { first: true };

export function firstPage(pagination: Pagination): PageState {
  switch (pagination.style) {
    case 'page_number':
      return { page: pagination.start_page };
    case 'offset':
      return { offset: 0 };
    case 'cursor':
      return { cursor: null };
    default:
      return { first: true };
  }
}

/** The URL of a page. */
export function pageUrl(base: URL, pagination: Pagination, state: PageState): URL {
  if ('url' in state) return new URL(state.url);
  const url = new URL(base);
  if ('page' in state) {
    url.searchParams.set(pagination.page_param, String(state.page));
    if (pagination.size_param) url.searchParams.set(pagination.size_param, String(pagination.page_size));
  } else if ('offset' in state) {
    url.searchParams.set(pagination.offset_param, String(state.offset));
    url.searchParams.set(pagination.limit_param, String(pagination.page_size));
  } else if ('cursor' in state && state.cursor !== null) {
    url.searchParams.set(pagination.cursor_param, state.cursor);
  }
  return url;
}

/**
 * The page after this one, or null at the end: an empty page ends page-number pagination (and a short
 * one, when the page size is sent), a short page ends offset pagination, a missing cursor or `next`
 * link ends the others.
 */
export function nextPage(pagination: Pagination, state: PageState, page: { url: URL; body: unknown; headers: Headers; records: number }): PageState | null {
  switch (pagination.style) {
    case 'page_number': {
      const short = pagination.size_param !== undefined && page.records < pagination.page_size;
      return page.records === 0 || short ? null : { page: (state as { page: number }).page + 1 };
    }
    case 'offset':
      return page.records < pagination.page_size ? null : { offset: (state as { offset: number }).offset + page.records };
    case 'cursor': {
      const cursor = valueAt(page.body, pagination.cursor_path);
      if (cursor === undefined || cursor === null || cursor === '') return null;
      if (typeof cursor !== 'string' && typeof cursor !== 'number')
        throw new SourceError('bad_response', `The cursor at ${pagination.cursor_path} is not a string or number`);
      if ('cursor' in state && state.cursor === String(cursor)) throw new SourceError('bad_response', 'The source returned the same cursor again');
      return { cursor: String(cursor) };
    }
    case 'link_header': {
      const next = nextLink(page.headers.get('link'));
      if (next === undefined) return null;
      try {
        return { url: new URL(next, page.url).href };
      } catch {
        throw new SourceError('bad_response', 'The source’s Link header names a next page that is not a URL');
      }
    }
    default:
      return null;
  }
}

/** The `rel="next"` target of an RFC 8288 Link header. */
export function nextLink(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /;\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?/i.test(match[2]!)) return match[1];
  }
  return undefined;
}

/** The value at a dotted path (`data.items`); the whole value for an empty path. */
export function valueAt(value: unknown, path: string | undefined): unknown {
  if (!path) return value;
  let current = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
