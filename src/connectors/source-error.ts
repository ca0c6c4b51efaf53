/** Why a source failed, so that messages (and tests) can tell the cases apart. */
export type SourceFailure = 'unreachable' | 'auth' | 'no_database' | 'tls' | 'not_found' | 'bad_response' | 'invalid' | 'other';

/** The source could not be reached or refused what was asked; the message is meant for the user. */
export class SourceError extends Error {
  constructor(
    readonly failure: SourceFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}
