/**
 * Answers of running workflows to a status query, shared by everyone who asks within `maxAgeMs` of
 * the question that fetched it. A client polling a job every few milliseconds would otherwise have
 * Temporal and the workflow's worker answer each poll: measured on a million-row sync polled every
 * 25 ms, the CPU those answers took slowed the sync they watched by 15 %. What a status query reports
 * changes a few times a second at most (a stream's progress is signalled once a second), so an
 * answer a fraction of a second old tells the same. A question still in flight is shared as well.
 */
export class RecentAnswers<T> {
  /** How old a status answer may be: a quarter of the second in which a stream's progress is signalled. */
  static readonly statusMaxAgeMs = 250;

  private readonly answers = new Map<string, { askedAt: number; answer: Promise<T> }>();

  constructor(
    private readonly maxAgeMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(workflowId: string, ask: () => Promise<T>): Promise<T> {
    const now = this.now();
    this.forgetAskedBy(now - this.maxAgeMs);
    const recent = this.answers.get(workflowId);
    if (recent) return recent.answer;
    const answer = ask();
    this.answers.set(workflowId, { askedAt: now, answer });
    // A failed question is not an answer: the next caller asks again.
    answer.catch(() => {
      if (this.answers.get(workflowId)?.answer === answer) this.answers.delete(workflowId);
    });
    return answer;
  }

  /** Entries are in the order they were asked, so the stale ones are at the front. */
  private forgetAskedBy(time: number): void {
    for (const [workflowId, { askedAt }] of this.answers) {
      if (askedAt > time) return;
      this.answers.delete(workflowId);
    }
  }
}
