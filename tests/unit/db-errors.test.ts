import { translated } from '../../src/infra/database/errors.ts';
import { NameTakenError, NotFoundError, RecordGoneError, ValidationError } from '../../src/domain/errors.ts';

const prismaError = (code: string) => Object.assign(new Error(`prisma ${code}`), { code });
const failing = (error: Error) => () => Promise.reject(error);

describe('translated', () => {
  it('turns a unique violation into NameTakenError naming what was taken (a 422)', async () => {
    const error = await translated({ taken: 'repository name' }, failing(prismaError('P2002'))).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NameTakenError);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toBe('repository name is already taken');
  });

  it('turns a missing row into RecordGoneError naming the thing (a 404)', async () => {
    const error = await translated({ gone: 'team' }, failing(prismaError('P2025'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecordGoneError);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toBe('team does not exist');
  });

  it('turns a missing referred row into RecordGoneError naming it (a 404)', async () => {
    const error = await translated(
      { taken: 'repository name', refersTo: 'owner' },
      failing(prismaError('P2003')),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecordGoneError);
    expect((error as Error).message).toBe('owner does not exist');
  });

  it('passes other failures, and codes the write does not name, through unchanged', async () => {
    const other = new Error('disk full');
    await expect(translated({ taken: 'x', gone: 'y' }, failing(other))).rejects.toBe(other);
    const gone = prismaError('P2025');
    await expect(translated({ taken: 'x' }, failing(gone))).rejects.toBe(gone);
  });

  it('answers what the write answers', async () => {
    await expect(translated({ taken: 'x' }, async () => 42)).resolves.toBe(42);
  });
});
