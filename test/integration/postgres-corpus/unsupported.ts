/**
 * Corpus entries Oxbow does not translate, each with the error a client gets (code and message).
 * Their tests check that exact error, so an entry that starts working (or fails differently) is
 * noticed, and they count as failures in the pass rate.
 */
export const unsupported: Readonly<Record<string, string>> = {
  'regtype cast': 'QUERY_ERROR: Type with name regtype does not exist!',
};
