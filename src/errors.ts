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
  constructor(message: string, readonly withoutUrl = false) {
    super(message);
  }
}

export class NotFoundError extends ApiError {
  readonly status = 404;
  constructor(message = 'The target couldn\'t be found.', readonly errors: string[] = []) {
    super(message);
  }
}

export class ConflictError extends ApiError {
  readonly status = 409;
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

export class QuotaExceededError extends ApiError {
  readonly status = 413;
  constructor(readonly userId: number, readonly username: string) {
    super('quota exceeded');
  }
}

/** A failure of the server itself; the client sees a generic message. */
export class InternalError extends ApiError {
  readonly status = 500;
}
