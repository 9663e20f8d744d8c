// Recognises database failures that have a meaning, and turns them into domain errors in the repositories, so
// each write says what failed. The error middleware still maps any that slip through.
import { NameTakenError, RecordGoneError } from '../../domain/errors.ts';

// The code of a Prisma or better-sqlite3 error, read from the object: not by `instanceof`, since better-sqlite3's
// native part keeps the error class of the first realm that loaded it.
function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof (error as { code: unknown }).code === 'string'
    ? (error as { code: string }).code
    : undefined;
}

/** A unique index refused the write (Prisma P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return errorCode(error) === 'P2002';
}

/** The row to update or delete does not exist (Prisma P2025). */
export function isRecordNotFound(error: unknown): boolean {
  return errorCode(error) === 'P2025';
}

/** SQLite could not take a lock at once (SQLITE_BUSY or one of its extended codes). */
export function isSqliteBusy(error: unknown): boolean {
  return errorCode(error)?.startsWith('SQLITE_BUSY') ?? false;
}

/** A row the write refers to does not exist, e.g. deleted meanwhile (Prisma P2003, a foreign key). */
export function isForeignKeyViolation(error: unknown): boolean {
  return errorCode(error) === 'P2003';
}

/**
 * What a write is about: `taken` names the unique value it may collide with, `gone` the row it may miss, and
 * `refersTo` the row it points at, which a concurrent delete may have removed.
 */
export interface WriteSubject {
  taken?: string;
  gone?: string;
  refersTo?: string;
}

/**
 * Runs one write; P2002 becomes NameTakenError(taken), P2025 RecordGoneError(gone), P2003
 * RecordGoneError(refersTo); anything else passes.
 */
export async function translated<T>(subject: WriteSubject, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (subject.taken !== undefined && isUniqueViolation(error)) throw new NameTakenError(subject.taken);
    if (subject.gone !== undefined && isRecordNotFound(error)) throw new RecordGoneError(subject.gone);
    if (subject.refersTo !== undefined && isForeignKeyViolation(error)) throw new RecordGoneError(subject.refersTo);
    throw error;
  }
}
