import type { QueryAnswer } from '../../query/query-service';

/**
 * Results up to this many characters go out as one body with its length, in one write; larger ones
 * are streamed piece by piece, so the whole encoded text is never held twice.
 */
const wholeBodyChars = 256 * 1024;

/** A query's answer as the HTTP response: an estimate as JSON, a result from its encoded pieces. */
export function toResponse(answer: QueryAnswer): Response {
  if (answer.kind === 'estimate') return Response.json(answer.body, { headers: answer.headers });
  const headers = { 'content-type': answer.contentType, ...answer.headers };
  const { pieces } = answer;
  if (pieces.reduce((chars, piece) => chars + piece.length, 0) <= wholeBodyChars) return new Response(pieces.join(''), { headers });
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < pieces.length) controller.enqueue(encoder.encode(pieces[next++]));
      else controller.close();
    },
  });
  return new Response(body, { headers });
}
