/** Why a source failed, so that messages (and tests) can tell the cases apart. */
/** `not_permitted`: the credentials work but may not read this one stream (a missing scope): the stream is skipped, the others sync. */
export type SourceFailure = 'unreachable' | 'auth' | 'not_permitted' | 'no_database' | 'tls' | 'not_found' | 'bad_response' | 'invalid' | 'other';

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
