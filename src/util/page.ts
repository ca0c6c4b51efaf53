/** One page of a list endpoint. */
export interface Page {
  limit: number;
  offset: number;
}
