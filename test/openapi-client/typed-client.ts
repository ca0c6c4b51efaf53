// A client typed only by what openapi-typescript generates from the service's OpenAPI document
// (`./oxbow.d.ts`, written by test/e2e/openapi-client.test.ts beside this file in a scratch folder).
import type { paths } from './oxbow';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Path = keyof paths;
/** The methods a path serves (openapi-typescript writes the others as `?: never`). */
export type MethodOf<P extends Path> = { [M in Method]: paths[P][M] extends undefined ? never : M }[Method];
type Operation<P extends Path, M extends MethodOf<P>> = NonNullable<paths[P][M]>;

type Parameters<O> = O extends { parameters: infer P } ? P : never;
type Field<T, K extends string> = K extends keyof T ? T[K] : undefined;
type JsonBody<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B | undefined
    : undefined;
type Responses<O> = O extends { responses: infer R } ? R : never;
type Content<R> = R extends { content: { 'application/json': infer B } } ? B : R extends { content: Record<string, infer T> } ? T : undefined;

/** Every answer the operation declares, as a union a `status` check narrows. */
export type Answer<O> = { [S in keyof Responses<O>]: { status: S; body: Content<Responses<O>[S]>; headers: Headers } }[keyof Responses<O>];

export interface Init<O> {
  path?: Field<Parameters<O>, 'path'>;
  query?: Field<Parameters<O>, 'query'>;
  body?: JsonBody<O>;
  token?: string;
  apiKey?: string;
}

export interface Client {
  call<P extends Path, M extends MethodOf<P>>(method: M, path: P, init?: Init<Operation<P, M>>): Promise<Answer<Operation<P, M>>>;
}

export function client(baseUrl: string): Client {
  return {
    async call(method, path, init = {}) {
      const filled = String(path).replace(/\{([^}]+)\}/g, (_, name: string) =>
        encodeURIComponent(String((init.path as Record<string, unknown> | undefined)?.[name])),
      );
      const url = new URL(`${baseUrl}${filled}`);
      for (const [name, value] of Object.entries((init.query as Record<string, unknown> | undefined) ?? {}))
        if (value !== undefined) url.searchParams.set(name, String(value));
      const headers = new Headers();
      if (init.token) headers.set('authorization', `Bearer ${init.token}`);
      if (init.apiKey) headers.set('x-api-key', init.apiKey);
      if (init.body !== undefined) headers.set('content-type', 'application/json');
      const response = await fetch(url, { method: method.toUpperCase(), headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
      const type = response.headers.get('content-type') ?? '';
      const body: unknown = response.status === 204 ? undefined : type.includes('json') ? await response.json() : await response.text();
      return { status: response.status, body, headers: response.headers } as never;
    },
  };
}

/** The body of the answer with that status; anything else is a failure of the walkthrough. */
export function expectStatus<A extends { status: PropertyKey; body: unknown }, S extends A['status']>(answer: A, status: S): Extract<A, { status: S }>['body'] {
  if (answer.status !== status) throw new Error(`expected ${String(status)}, got ${String(answer.status)}: ${JSON.stringify(answer.body)}`);
  return answer.body as Extract<A, { status: S }>['body'];
}
