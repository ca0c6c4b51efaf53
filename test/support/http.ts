/**
 * A response body for assertions. Tests check shapes with expect(), so the body is typed `any` on
 * purpose: a declared type would only restate what the assertions already say.
 */

export async function bodyOf(response: Response): Promise<any> {
  return response.json();
}

/** The status and the documented error (`{detail: {error: {code, message, hint?}}}`) of an answer, in one object. */
export async function errorOf(response: Response): Promise<any> {
  return { status: response.status, ...(await bodyOf(response)).detail.error };
}
