import { namedQuery } from '../../store/named-query';

export const joinWaitlist = namedQuery<{ email: string; now: string }>(
  'waitlist.join',
  'INSERT INTO waitlist (email, created_at) VALUES (:email, :now) ON CONFLICT (email) DO NOTHING',
);
