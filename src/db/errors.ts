// Recognises database failures that have a meaning for the API.

function prismaCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof (error as { code: unknown }).code === 'string'
    ? (error as { code: string }).code
    : undefined;
}

/** A unique index refused the write (Prisma P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return prismaCode(error) === 'P2002';
}

/** The row to update or delete does not exist (Prisma P2025). */
export function isRecordNotFound(error: unknown): boolean {
  return prismaCode(error) === 'P2025';
}
