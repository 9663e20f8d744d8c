import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createTestUser(t, { admin: true });
});
afterAll(() => t.close());

// Generated with ssh-keygen; fingerprints as `ssh-keygen -lf` prints them.
const ED25519 = {
  line: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE8xTNzErH5Ea4s9DnOGt8kZcoTCzG4B3SbAWDc+ijtf fixture@ed25519-256',
  fingerprint: 'SHA256:fLZzs/mDAR4NyzeIAJMaXpfweiFcWg1bcguqbPGq3Qg',
};
const ECDSA = {
  line: 'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBL34HL0k6x1i0lzdZ7p2nT9g5qGxXIwHf2SraisuOZRib+UzwbrugKO6zMJR0fqGCLZDWDCBGUhVB3T26nzy1dc= fixture@ecdsa-256',
  fingerprint: 'SHA256:lwaC+WKSDcBPnXEgszcQDBN5yWwkm1YP9V2H93q7TLM',
};
const RSA_3072 = {
  line: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQCTxXO4wDfR7Au5AHFkWZJARleeGxAtqZHREzrAHfxTl6EilEvpjSG1XueeLnTv/Ti8DcBlyWHsiUaegbGOSSfFZ75l6jrILeA+blBUFdGvvZOHqwrFTA3Gl/k9ggynGA8Js1Q5+SPpxpf1KDZ2g8r29sFSqV9CImRyk7beahpxGKpNmsk8/GCWxA+ZtFwfPKmdYl6jjbYkl7opA4ido7pugtinHckXkT6jKiprSC46x+TtuVr9I8mPvDBnv96I7QZATyhJI4A5KKoudpqCxbPMaTYRqNqyfGaY9dAGc0wqClnazL4H2Jnh0CS7sMiV0ME/wiKaABYv43eUvNkuy2+c1ENAW1K+qGycIXZqixeqdaK0xKXsVQLQGSmWsuuLMGK0UcISIPGMoD0JDnhto+AWVMwcC0zQ0+kt+fIYczDao2e75aQYNYNKUKJUfmLEoH7M4esR1Fs2m6jbJiUZWg2zW44Ds+skJ7VRsqaJvlcVGW7xtdzWz8t+rpNUE5GO/sE= fixture@rsa-3072',
  fingerprint: 'SHA256:H5CGlGKgOWivksiXDYZVMy1U9kAw1HymSpthuDvaafo',
};
const RSA_2048 =
  'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQCHy0bWwRPGACRFjVsXAEu2/dB0rawREFAT6AnCXYhrZvVMQpR25vQfPxPv1pSFoDNqCQ93Pnyt6Isd0an9Fx9OPCz+LJpUlsP9VC2vDGV22xU/XZo8ZcUrh8Ylh0RVe2Di1m/7q0j/l5GvQfIV8bkczLU7msbb5Wq1Sz7vmJJAaawcSgg4iJ4zFQLUGh+9HvaKbINOo4+Vj1TYiPElNStaXlsZkCUFhe+/y/LmRYNEhCjmupj4PKP48KNGba6H95o0TGKbc6GI24Zy/cwNUwMAKe1NN9ArWsTYB7GeZBnXQl8wpnqnGoFQd5OZU63mRsuO9bHshW/gPDPPLCNS6jxJ fixture@rsa-2048';

const addKey = (username: string, key: string, title = 'laptop', auth = admin.auth) =>
  t.request().post(`/api/v1/admin/users/${username}/keys`).set('Authorization', auth).send({ title, key });
const deleteKey = (username: string, id: number, auth = admin.auth) =>
  t.request().delete(`/api/v1/admin/users/${username}/keys/${id}`).set('Authorization', auth);

afterEach(() => t.context.db.prisma.publicKey.deleteMany());

describe('POST /admin/users/{username}/keys', () => {
  it.each([
    ['ed25519', ED25519],
    ['ECDSA', ECDSA],
    ['RSA', RSA_3072],
  ])('adds an %s key with its SHA256 fingerprint', async (_type, fixture) => {
    const bob = await createTestUser(t);
    const res = await addKey(bob.user.name, `${fixture.line}\n`).expect(201);
    const content = fixture.line.split(' ').slice(0, 2).join(' ');
    expect(res.body).toMatchObject({
      title: 'laptop',
      key: content,
      fingerprint: fixture.fingerprint,
      key_type: 'user',
      read_only: false,
      url: `http://localhost:3000/api/v1/user/keys/${res.body.id}`,
      user: { id: bob.user.id, login: bob.user.name },
    });
    const stored = await t.context.db.prisma.publicKey.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored).toMatchObject({ ownerId: bob.user.id, name: 'laptop', fingerprint: fixture.fingerprint, content });
  });

  it.each([
    ['not a key at all', 'hello'],
    ['broken base64', 'ssh-ed25519 AAAA%%%%'],
    ['a type that does not match the data', `ssh-rsa ${ED25519.line.split(' ')[1]}`],
    ['an RSA key below the minimum size', RSA_2048],
  ])('answers 422 for %s', async (_what, key) => {
    const bob = await createTestUser(t);
    await addKey(bob.user.name, key).expect(422);
    expect(await t.context.db.prisma.publicKey.count({ where: { ownerId: bob.user.id } })).toBe(0);
  });

  it('refuses a key already registered anywhere, and a title the user already has', async () => {
    const bob = await createTestUser(t);
    const carol = await createTestUser(t);
    await addKey(bob.user.name, ED25519.line).expect(201);
    expect((await addKey(bob.user.name, ED25519.line, 'other').expect(422)).body.message).toMatch(/already exists/);
    await addKey(carol.user.name, ED25519.line.replace('fixture@', 'another-comment@'), 'desk').expect(422);
    expect((await addKey(bob.user.name, ECDSA.line, 'laptop').expect(422)).body.message).toMatch(/name already exists/);
    await addKey(carol.user.name, ECDSA.line, 'laptop').expect(201);
  });

  it('answers 404 for an unknown user and 403 for a non-admin caller', async () => {
    const bob = await createTestUser(t);
    await addKey('nobody-like-this', ED25519.line).expect(404);
    await addKey(bob.user.name, ED25519.line, 'laptop', bob.auth).expect(403);
  });
});

describe('DELETE /admin/users/{username}/keys/{id}', () => {
  it('deletes the key of the named user', async () => {
    const bob = await createTestUser(t);
    const key = (await addKey(bob.user.name, ED25519.line).expect(201)).body;
    await deleteKey(bob.user.name, key.id).expect(204);
    expect(await t.context.db.prisma.publicKey.count({ where: { id: key.id } })).toBe(0);
    await deleteKey(bob.user.name, key.id).expect(404);
  });

  it('answers 403 for a key of another user, 404 for an unknown id, 403 for a non-admin caller', async () => {
    const bob = await createTestUser(t);
    const carol = await createTestUser(t);
    const key = (await addKey(bob.user.name, ED25519.line).expect(201)).body;
    await deleteKey(carol.user.name, key.id).expect(403);
    await deleteKey(bob.user.name, 999999).expect(404);
    await deleteKey(bob.user.name, key.id, bob.auth).expect(403);
    expect(await t.context.db.prisma.publicKey.count({ where: { id: key.id } })).toBe(1);
  });
});
