// The owner signing keys of the system-package repositories: made once per owner and kind, stored sealed, the same
// key after a restart (a fresh service), and signatures that verify with the public key.
import { createPublicKey, verify } from 'node:crypto';
import * as openpgp from 'openpgp';
import { PackageSigningKeys } from '../../src/packages/core/signing-keys.ts';
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t);
});
afterAll(() => t.close());

const keys = () => t.context.services.packageSigningKeys;

describe('OpenPGP key', () => {
  it('signs detached and clear-signed text that verifies with the served public key, and keeps its key', async () => {
    const signer = await keys().pgp(alice.user);
    const publicKey = await openpgp.readKey({ armoredKey: signer.publicKeyArmored });
    expect(publicKey.getFingerprint().toUpperCase()).toBe(signer.fingerprint);

    const text = 'Origin: anvil\nSuite: stable\n';
    const armored = (await signer.detachSign(text, 'armored')) as string;
    const detached = await openpgp.verify({
      message: await openpgp.createMessage({ binary: Buffer.from(text) }),
      signature: await openpgp.readSignature({ armoredSignature: armored }),
      verificationKeys: publicKey,
      expectSigned: true,
    });
    await expect(detached.signatures[0].verified).resolves.toBe(true);

    const tampered = await openpgp.verify({
      message: await openpgp.createMessage({ binary: Buffer.from(text.replace('stable', 'stablE')) }),
      signature: await openpgp.readSignature({ armoredSignature: armored }),
      verificationKeys: publicKey,
    });
    await expect(tampered.signatures[0].verified).rejects.toThrow();

    const clear = await signer.clearSign(text);
    expect(clear).toContain('-----BEGIN PGP SIGNED MESSAGE-----');
    const verified = await openpgp.verify({
      message: await openpgp.readCleartextMessage({ cleartextMessage: clear }),
      verificationKeys: publicKey,
    });
    await expect(verified.signatures[0].verified).resolves.toBe(true);

    const row = await t.context.db.prisma.packageSigningKey.findUniqueOrThrow({
      where: { ownerId_kind: { ownerId: alice.user.id, kind: 'pgp' } },
    });
    expect(row.privateKey.startsWith('enc1:')).toBe(true);
    expect(row.privateKey).not.toContain('PRIVATE KEY');

    const afterRestart = await new PackageSigningKeys(t.context.services.packageSigningKeys['deps']).pgp(alice.user);
    expect(afterRestart.fingerprint).toBe(signer.fingerprint);
  });

  it('makes one key when two callers ask at once', async () => {
    const bob = await createTestUser(t);
    const [first, second] = await Promise.all([
      new PackageSigningKeys(keys()['deps']).pgp(bob.user),
      new PackageSigningKeys(keys()['deps']).pgp(bob.user),
    ]);
    expect(second.fingerprint).toBe(first.fingerprint);
    expect(await t.context.db.prisma.packageSigningKey.count({ where: { ownerId: bob.user.id } })).toBe(1);
  });
});

describe('RSA key', () => {
  it('signs with a key whose PEM public half verifies it', async () => {
    const signer = await keys().rsa(alice.user);
    const data = Buffer.from('APKINDEX contents');
    const signature = signer.sign(data, 'sha1');
    expect(verify('sha1', data, createPublicKey(signer.publicKeyPem), signature)).toBe(true);
    expect(verify('sha1', Buffer.from('APKINDEX content5'), createPublicKey(signer.publicKeyPem), signature)).toBe(
      false,
    );
  });
});
