import type { QueryAnswer } from '../../query/query-service';

/** A query's answer as the HTTP response: an estimate as JSON, a result streamed from its encoded pieces. */
export function toResponse(answer: QueryAnswer): Response {
  if (answer.kind === 'estimate') return Response.json(answer.body, { headers: answer.headers });
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < answer.pieces.length) controller.enqueue(encoder.encode(answer.pieces[next++]));
      else controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': answer.contentType, ...answer.headers } });
}
