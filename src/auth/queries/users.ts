import { namedQuery } from '../../store/named-query';

export interface UserRow {
  id: string;
  email: string;
  name: string | null;
  password_hash: string;
  email_verified_at: string | null;
  session_epoch: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  purge_after: string | null;
  purged_at: string | null;
}

export const insertUser = namedQuery<{ id: string; email: string; name: string | null; password_hash: string; now: string }>(
  'users.insert',
  `INSERT INTO users (id, email, name, password_hash, created_at, updated_at)
   VALUES (:id, :email, :name, :password_hash, :now, :now)`,
);

export const findActiveUserByEmail = namedQuery<{ email: string }, UserRow>(
  'users.find_active_by_email',
  'SELECT * FROM users WHERE email = :email AND deleted_at IS NULL',
);

export const findActiveUserById = namedQuery<{ id: string }, UserRow>('users.find_active_by_id', 'SELECT * FROM users WHERE id = :id AND deleted_at IS NULL');

export const findUserById = namedQuery<{ id: string }, UserRow>('users.find_by_id', 'SELECT * FROM users WHERE id = :id');

export const markEmailVerified = namedQuery<{ id: string; now: string }>(
  'users.mark_email_verified',
  'UPDATE users SET email_verified_at = COALESCE(email_verified_at, :now), updated_at = :now WHERE id = :id AND deleted_at IS NULL',
);

export const changeEmail = namedQuery<{ id: string; email: string; now: string }>(
  'users.change_email',
  'UPDATE users SET email = :email, email_verified_at = :now, updated_at = :now WHERE id = :id AND deleted_at IS NULL',
);

/** A new password ends every session: the epoch bump kills outstanding access tokens. */
export const setPassword = namedQuery<{ id: string; password_hash: string; now: string }>(
  'users.set_password',
  `UPDATE users SET password_hash = :password_hash, session_epoch = session_epoch + 1, updated_at = :now
   WHERE id = :id AND deleted_at IS NULL`,
);

/** Logout everywhere: the epoch bump ends every outstanding access token at once. */
export const endUserSessions = namedQuery<{ id: string; now: string }>(
  'users.end_sessions',
  'UPDATE users SET session_epoch = session_epoch + 1, updated_at = :now WHERE id = :id AND deleted_at IS NULL',
);

export const softDeleteUser = namedQuery<{ id: string; now: string; purge_after: string }>(
  'users.soft_delete',
  `UPDATE users SET deleted_at = :now, purge_after = :purge_after, session_epoch = session_epoch + 1, updated_at = :now
   WHERE id = :id AND deleted_at IS NULL`,
);

/** Keeps a tombstone (ids stay valid in usage records) with every personal field wiped. */
export const purgeUser = namedQuery<{ id: string; now: string; tombstone_email: string }>(
  'users.purge',
  `UPDATE users SET email = :tombstone_email, name = NULL, password_hash = '!', purged_at = :now, updated_at = :now
   WHERE id = :id AND deleted_at IS NOT NULL AND purged_at IS NULL`,
);
