// Domain errors thrown by services and guards; the error middleware turns them into Forgejo's error bodies.

export abstract class ApiError extends Error {
  abstract readonly status: number;
}

export class BadRequestError extends ApiError {
  readonly status = 400;
}

export class UnauthorizedError extends ApiError {
  readonly status = 401;
}

export class ForbiddenError extends ApiError {
  readonly status = 403;
  /** Account gates answer with `message` only, as Forgejo does. */
  constructor(
    message: string,
    readonly withoutUrl = false,
  ) {
    super(message);
  }
}

export class NotFoundError extends ApiError {
  readonly status = 404;
  constructor(
    message = "The target couldn't be found.",
    readonly errors: string[] = [],
  ) {
    super(message);
  }
}

export class ConflictError extends ApiError {
  readonly status = 409;
}

/** The row a write names is gone (deleted meanwhile); repositories throw it naming the thing. Answers 404. */
export class RecordGoneError extends NotFoundError {
  constructor(readonly subject: string) {
    super(`${subject} does not exist`);
  }
}

export class PayloadTooLargeError extends ApiError {
  readonly status = 413;
}

export class UnsupportedMediaTypeError extends ApiError {
  readonly status = 415;
}

export class ValidationError extends ApiError {
  readonly status = 422;
}

/**
 * A write refused because a unique value is already used; repositories throw it naming what was taken
 * ("repository name"). Services usually answer with their own message; one that escapes answers 422.
 */
export class NameTakenError extends ValidationError {
  constructor(readonly subject: string) {
    super(`${subject} is already taken`);
  }
}

/** Refused for now; `retryAfter` seconds is when trying again makes sense (Retry-After header). */
export class TooManyRequestsError extends ApiError {
  readonly status = 429;
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super(message);
  }
}

/** A 422 answered as plain text with a trailing newline, as Forgejo's markup endpoints do. */
export class PlainTextValidationError extends ApiError {
  readonly status = 422;
}

export class QuotaExceededError extends ApiError {
  readonly status = 413;
  constructor(
    readonly userId: number,
    readonly username: string,
  ) {
    super('quota exceeded');
  }
}

/** A failure of the server itself; the client sees a generic message. */
export class InternalError extends ApiError {
  readonly status = 500;
}

/** A renamed user, organization or repository: 307 to the same request under the current names. */
export class RenamedRedirect extends ApiError {
  readonly status = 307;
  constructor(readonly location: string) {
    super('moved');
  }
}

/** A state the change depends on does not hold (a merged pull request cannot reopen). */
export class PreconditionFailedError extends ApiError {
  readonly status = 412;
}

/** The repository is archived: nothing in it may change. */
export class RepoArchivedError extends ApiError {
  readonly status = 423;
}

/** Topics a repository may not have (Forgejo: APIInvalidTopicsError), named in the answer. */
export class InvalidTopicsError extends ValidationError {
  constructor(
    message: string,
    readonly invalidTopics: string[],
  ) {
    super(message);
  }
}

/** The request is understood but the resource's state refuses it (Forgejo answers 405: a merged pull request). */
export class NotAllowedError extends ApiError {
  readonly status = 405;
}
