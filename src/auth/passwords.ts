/** Argon2id through Bun.password; the parameters live in the hash, so they can be raised later. */
const algorithm = { algorithm: 'argon2id', memoryCost: 19_456, timeCost: 2 } as const;

export const passwordRules = { minLength: 8, maxLength: 128 } as const;

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, algorithm);
}

// Verified against when the account does not exist, so that the unknown-account path costs the same.
let decoyHash: Promise<string> | undefined;

/** Verifies a password; without a stored hash it still does the same work and answers false. */
export async function verifyPassword(password: string, hash: string | undefined): Promise<boolean> {
  if (hash === undefined) {
    decoyHash ??= hashPassword('decoy password for unknown accounts');
    await Bun.password.verify(password, await decoyHash);
    return false;
  }
  return Bun.password.verify(password, hash);
}
