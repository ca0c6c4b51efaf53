/**
 * A JSON body large enough that its route reads it itself rather than have it parsed on the way in
 * (a push reads its records on two threads, see parallel-records.ts): the bytes as received, within
 * the route's limit. The route reads it with the same checks and the same errors as any JSON body.
 */
export class LargeJsonBody {
  constructor(readonly bytes: Uint8Array) {}
}
