import { describe, expect, test } from 'bun:test';
import { RecentAnswers } from '../../src/temporal/recent-answers';

function counter() {
  let asked = 0;
  return {
    get asked() {
      return asked;
    },
    ask: (answer: string) => () => {
      asked += 1;
      return Promise.resolve(answer);
    },
  };
}

describe('RecentAnswers', () => {
  test('an answer younger than the limit is reused; an older one is asked again', async () => {
    let now = 1_000;
    const answers = new RecentAnswers<string>(250, () => now);
    const workflow = counter();
    expect(await answers.get('wf-1', workflow.ask('first'))).toBe('first');
    now += 249;
    expect(await answers.get('wf-1', workflow.ask('second'))).toBe('first');
    expect(workflow.asked).toBe(1);
    now += 1;
    expect(await answers.get('wf-1', workflow.ask('third'))).toBe('third');
    expect(workflow.asked).toBe(2);
  });

  test('each workflow has its own answer, and a question in flight is shared', async () => {
    const answers = new RecentAnswers<string>(250, () => 0);
    let release!: (answer: string) => void;
    let asked = 0;
    const slow = () => {
      asked += 1;
      return new Promise<string>((resolve) => (release = resolve));
    };
    const first = answers.get('wf-1', slow);
    const second = answers.get('wf-1', slow);
    const other = counter();
    expect(await answers.get('wf-2', other.ask('other'))).toBe('other');
    release('shared');
    expect(await Promise.all([first, second])).toEqual(['shared', 'shared']);
    expect(asked).toBe(1);
  });

  test('a question that failed is not kept: the next caller asks again', async () => {
    const answers = new RecentAnswers<string>(250, () => 0);
    const failure = await answers
      .get('wf-1', () => Promise.reject(new Error('unavailable')))
      .then(
        () => 'no failure',
        (error: unknown) => String(error),
      );
    expect(failure).toBe('Error: unavailable');
    expect(await answers.get('wf-1', () => Promise.resolve('answered'))).toBe('answered');
  });
});
