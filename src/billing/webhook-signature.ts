import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors/app-error';

/** How far a signed timestamp may be from now: Stripe's own default, five minutes. */
export const signatureToleranceSeconds = 300;

/**
 * Checks a `Stripe-Signature` header (`t=<seconds>,v1=<hex>[,v1=<hex>…]`) over the exact bytes
 * received: HMAC-SHA256 of `<t>.<body>` with the endpoint's signing secret, compared in constant time
 * with each v1 signature (several while a secret is being rolled), then the timestamp within the
 * tolerance either way, so a captured delivery cannot be replayed later.
 */
export function verifyStripeSignature(body: Uint8Array, header: string | undefined, secret: string, now: Date): void {
  if (!header) throw invalid('The Stripe-Signature header is missing');
  const fields = header.split(',').map((part) => part.trim().split('=', 2) as [string, string | undefined]);
  const timestamps = fields.filter(([key]) => key === 't').map(([, value]) => value ?? '');
  const signatures = fields.filter(([key, value]) => key === 'v1' && value).map(([, value]) => value!);
  if (timestamps.length !== 1 || !/^\d{1,12}$/.test(timestamps[0]!) || signatures.length === 0) {
    throw invalid('The Stripe-Signature header is malformed; it should read t=<timestamp>,v1=<signature>');
  }
  const timestamp = timestamps[0]!;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  const matches = signatures.some((signature) => {
    const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : undefined;
    return given !== undefined && timingSafeEqual(given, expected);
  });
  if (!matches) throw invalid('No signature in the Stripe-Signature header matches the body');
  const age = Math.floor(now.getTime() / 1000) - Number(timestamp);
  if (Math.abs(age) > signatureToleranceSeconds) {
    throw invalid(`The signature's timestamp is ${age} s from now; at most ${signatureToleranceSeconds} s either way is accepted`);
  }
}

function invalid(message: string): AppError {
  return new AppError('INVALID_SIGNATURE', message, {
    hint: 'Send the body exactly as the billing provider signed it, with its signature header, within five minutes.',
  });
}
