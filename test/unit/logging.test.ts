import { describe, expect, test } from 'bun:test';
import { createLogger } from '../../src/logging/logger';

describe('structured logs', () => {
  const capture = () => {
    const lines: string[] = [];
    return { lines, logger: createLogger({ level: 'info', sink: (line) => lines.push(line) }) };
  };

  test('one JSON object per line, with level, time, message and bound fields', () => {
    const { lines, logger } = capture();
    logger.child({ component: 'api' }).info('request', { status: 200 });
    logger.debug('hidden below the threshold');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'info', msg: 'request', component: 'api', status: 200, time: expect.any(String) });
  });

  test('secrets never reach a line: sensitive keys and credential-shaped strings are masked', () => {
    const { lines, logger } = capture();
    const apiKey = `oxb_${'A1b2C3d4'.repeat(5)}`;
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    const stripeKey = `sk_live_${'Z9y8X7w6'.repeat(3)}`;
    const signingSecret = `whsec_${'Q1w2E3r4'.repeat(4)}`;
    logger.info('signup', {
      password: 'hunter2-hunter2',
      refresh_token: 'opaque-refresh',
      headers: { authorization: `Bearer ${jwt}` },
      note: `key ${apiKey} and token ${jwt} in text`,
      url: 'postgres://oxbow:db-password@db/oxbow',
      link: 'https://app/verify-email?token=abc123',
      provider: `Invalid API Key provided: ${stripeKey}; endpoint secret ${signingSecret}`,
    });
    const line = lines[0]!;
    for (const secret of ['hunter2-hunter2', 'opaque-refresh', apiKey, jwt, 'db-password', 'abc123', stripeKey, signingSecret])
      expect(line).not.toContain(secret);
    expect(JSON.parse(line)).toMatchObject({ password: '[redacted]', refresh_token: '[redacted]', headers: { authorization: '[redacted]' } });
  });

  test('error codes are kept under `code`; codes that are secrets (OAuth, session) are masked', () => {
    const { lines, logger } = capture();
    const oauthCode = 'Ab9xQ-2kLm_pQ7rS8tUvWxYz01234567';
    const sessionCode = 'q7Hk2LmN9pQr4StUvW8xYz3A';
    logger.info('job ended', { code: 'UNDEFINED_COLUMN', error: { code: 'ECONNREFUSED' }, sqlstate: { code: '22012' }, grpc: { code: 14 } });
    logger.info('callback', {
      code: oauthCode,
      nested: { code: sessionCode },
      lower: { code: 'not_an_error_code' },
      long: { code: 'ABCDEFGHJKLMNPQRSTUVWXYZ' },
    });
    expect(JSON.parse(lines[0]!)).toMatchObject({ code: 'UNDEFINED_COLUMN', error: { code: 'ECONNREFUSED' }, sqlstate: { code: '22012' }, grpc: { code: 14 } });
    expect(lines[1]).not.toContain(oauthCode);
    expect(lines[1]).not.toContain(sessionCode);
    expect(JSON.parse(lines[1]!)).toMatchObject({
      code: '[redacted]',
      nested: { code: '[redacted]' },
      lower: { code: '[redacted]' },
      long: { code: '[redacted]' },
    });
  });

  test('a public link in a path is masked (its token opens the chart), other paths are kept', () => {
    const { lines, logger } = capture();
    const token = 'Ab3_-x'.repeat(8).slice(0, 43);
    logger.info('request', {
      path: `/c/${token}`,
      data: `/c/${token}/data`,
      page: `/p/${token}`,
      other: '/api/v1/workspaces/0193/charts/c/usage',
      short: '/c/abc',
    });
    const line = lines[0]!;
    expect(line).not.toContain(token);
    expect(JSON.parse(line)).toMatchObject({
      path: '/c/[redacted]',
      data: '/c/[redacted]/data',
      page: '/p/[redacted]',
      other: '/api/v1/workspaces/0193/charts/c/usage',
      short: '/c/abc',
    });
  });

  test('errors keep their message and stack, redacted', () => {
    const { lines, logger } = capture();
    logger.error('failed', { error: new Error('connect to postgres://u:pw@h/db failed') });
    const entry = JSON.parse(lines[0]!);
    expect(entry.error.message).toBe('connect to postgres://u:[redacted]@h/db failed');
    expect(entry.error.stack).toContain('Error');
  });
});
