// GET /activitypub/user-id/{id} (the Person actor and its stored key pair) and POST …/inbox (HTTP Signatures
// checked against the key of a remote actor served from loopback, so most tests allow loopback in
// [federation] ALLOWED_HOST_LIST); key fetches are bounded in time and size and tell the caller nothing of why.
import { createHash, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import http, { type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { listen } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const AS_CONTENT_TYPE = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
const ROOT = 'http://localhost:3000';

function rsaKeyPair(): { privateKey: KeyObject; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/** A remote server on loopback that publishes actor documents; counts how often each is fetched. */
class ActorServer {
  readonly documents = new Map<string, unknown>();
  readonly fetches = new Map<string, number>();
  private server = http.createServer((req, res) => {
    const path = req.url ?? '';
    this.fetches.set(path, (this.fetches.get(path) ?? 0) + 1);
    const document = this.documents.get(path);
    if (!document) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/activity+json' }).end(JSON.stringify(document));
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** Publishes an actor whose main key is `publicKeyPem`; returns its keyId. */
  publishActor(path: string, publicKeyPem: string): string {
    const id = this.url(path);
    this.documents.set(path, {
      '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'],
      id,
      type: 'Person',
      inbox: `${id}/inbox`,
      publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem },
    });
    return `${id}#main-key`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

interface SignOptions {
  keyId: string;
  privateKey: KeyObject;
  headers?: string[];
  date?: Date;
  /** Digest of this text instead of the body. */
  digestOf?: string;
}

const HOST = 'anvil.test';

const inboxPath = (userId: number) => `/api/v1/activitypub/user-id/${userId}/inbox`;

/** Headers signing a POST of `body` to the inbox per draft-cavage (rsa-sha256), independently of the server's library. */
function signedHeaders(userId: number, body: string, options: SignOptions): Record<string, string> {
  const headers: Record<string, string> = {
    host: HOST,
    date: (options.date ?? new Date()).toUTCString(),
    digest: `SHA-256=${createHash('sha256')
      .update(options.digestOf ?? body)
      .digest('base64')}`,
  };
  const covered = options.headers ?? ['(request-target)', 'host', 'date', 'digest'];
  const signingString = covered
    .map((name) =>
      name === '(request-target)' ? `(request-target): post ${inboxPath(userId)}` : `${name}: ${headers[name]}`,
    )
    .join('\n');
  const signature = sign('sha256', Buffer.from(signingString), options.privateKey).toString('base64');
  return {
    ...headers,
    'content-type': 'application/activity+json',
    signature: `keyId="${options.keyId}",algorithm="rsa-sha256",headers="${covered.join(' ')}",signature="${signature}"`,
  };
}

function signedInbox(t: TestApp, userId: number, body: string, options: SignOptions) {
  return t
    .request()
    .post(inboxPath(userId))
    .set(signedHeaders(userId, body, options))
    .send(body);
}

const UNREACHABLE = "the actor's key could not be fetched: no usable answer";

const ACTIVITY = JSON.stringify({
  '@context': 'https://www.w3.org/ns/activitystreams',
  type: 'Follow',
  actor: 'x',
  object: 'y',
});

describe('federation with local networks allowed', () => {
  let t: TestApp;
  let user: TestUser;
  let remote: ActorServer;
  const sender = rsaKeyPair();
  const stranger = rsaKeyPair();
  let keyId: string;

  beforeAll(async () => {
    t = await startTestApp({
      ANVIL__federation__ALLOWED_HOST_LIST: 'loopback',
      ANVIL__federation__FETCH_TIMEOUT: '1s',
      ANVIL__federation__MAX_SIZE: '1',
    });
    user = await createTestUser(t);
    await t.context.services.activityPub.fillMissingKeys();
    remote = new ActorServer();
    await remote.start();
    keyId = remote.publishActor('/actors/sender', sender.publicKeyPem);
  });
  afterAll(async () => {
    await remote.close();
    await t.close();
  });

  describe('GET /activitypub/user-id/{id}', () => {
    it('answers the Person document with the ActivityStreams content type', async () => {
      await t.context.db.prisma.user.update({ where: { id: user.user.id }, data: { fullName: 'Ada Lovelace' } });
      const res = await t.request().get(`/api/v1/activitypub/user-id/${user.user.id}`).expect(200);
      expect(res.headers['content-type']?.startsWith(AS_CONTENT_TYPE)).toBe(true);
      const id = `${ROOT}/api/v1/activitypub/user-id/${user.user.id}`;
      const body = JSON.parse(res.text);
      expect(body).toEqual({
        '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'],
        id,
        type: 'Person',
        name: 'Ada Lovelace',
        preferredUsername: user.user.name,
        url: `${ROOT}/${user.user.name}`,
        icon: { type: 'Image', mediaType: 'image/png', url: `${ROOT}/avatars/default/${user.user.id}` },
        inbox: `${id}/inbox`,
        outbox: `${id}/outbox`,
        publicKey: {
          id: `${id}#main-key`,
          owner: id,
          publicKeyPem: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----\n/),
        },
      });
      const key = createPublicKey(body.publicKey.publicKeyPem);
      expect(key.asymmetricKeyType).toBe('rsa');
      expect(key.asymmetricKeyDetails?.modulusLength).toBe(3072);
    });

    it('makes no key pair on a request: the actor is 404 until the background worker made it, then kept', async () => {
      const other = await createTestUser(t);
      const url = `/api/v1/activitypub/user-id/${other.user.id}`;
      const early = await t.request().get(url).expect(404);
      expect(early.body.message).toBe('the actor of this user is not ready yet');
      expect(await t.context.db.prisma.userKeyPair.findUnique({ where: { userId: other.user.id } })).toBeNull();
      const org = await createTestOrg(t, other.user);
      expect(await t.context.services.activityPub.fillMissingKeys()).toBeGreaterThanOrEqual(1);
      const [first, second] = await Promise.all([t.request().get(url).expect(200), t.request().get(url).expect(200)]);
      const pem = (res: { text: string }) => JSON.parse(res.text).publicKey.publicKeyPem;
      expect(pem(second)).toBe(pem(first));
      const stored = await t.context.db.prisma.userKeyPair.findUniqueOrThrow({ where: { userId: other.user.id } });
      expect(stored.publicKeyPem).toBe(pem(first));
      expect(stored.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      expect(JSON.parse(second.text)).not.toHaveProperty('name');
      expect(await t.context.services.activityPub.fillMissingKeys()).toBe(0);
      expect(await t.context.db.prisma.userKeyPair.count({ where: { userId: org.id } })).toBe(0);
    });

    it('makes key pairs in the background once its worker runs', async () => {
      const later = await createTestUser(t);
      t.context.services.activityPub.startKeyWorker(50);
      try {
        while (!(await t.context.db.prisma.userKeyPair.findUnique({ where: { userId: later.user.id } }))) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        await t.context.services.activityPub.stopKeyWorker();
      }
      await t.request().get(`/api/v1/activitypub/user-id/${later.user.id}`).expect(200);
    });

    it('answers 404 for the actor of a user the caller may not see, as for an unknown id', async () => {
      const limited = await createTestUser(t, { fields: { visibility: 1 } });
      const hidden = await createTestUser(t, { fields: { visibility: 2 } });
      await t.context.services.activityPub.fillMissingKeys();
      const url = (u: TestUser) => `/api/v1/activitypub/user-id/${u.user.id}`;
      await t.request().get(url(limited)).expect(404);
      await t.request().get(url(limited)).set('Authorization', user.auth).expect(200);
      await t.request().get(url(hidden)).set('Authorization', user.auth).expect(404);
      await t.request().get(url(hidden)).set('Authorization', hidden.auth).expect(200);
    });

    it('answers 404 for an unknown id', async () => {
      await t.request().get('/api/v1/activitypub/user-id/999999').expect(404);
      await t.request().get('/api/v1/activitypub/user-id/99999999999999').expect(404);
    });
  });

  describe('POST /activitypub/user-id/{id}/inbox', () => {
    it('accepts an activity signed by the key its keyId names (204)', async () => {
      await signedInbox(t, user.user.id, ACTIVITY, { keyId, privateKey: sender.privateKey }).expect(204);
    });

    it('answers 400 to an unsigned delivery', async () => {
      const res = await t
        .request()
        .post(`/api/v1/activitypub/user-id/${user.user.id}/inbox`)
        .set('Content-Type', 'application/activity+json')
        .send(ACTIVITY)
        .expect(400);
      expect(res.body.message).toMatch(/not signed/);
    });

    it('answers 403 when the signature was made with another key', async () => {
      const res = await signedInbox(t, user.user.id, ACTIVITY, { keyId, privateKey: stranger.privateKey }).expect(403);
      expect(res.body.message).toBe('request signature verification failed');
    });

    it('answers 400 when the body is not the one the digest names', async () => {
      const res = await signedInbox(t, user.user.id, ACTIVITY, {
        keyId,
        privateKey: sender.privateKey,
        digestOf: '{"type":"Delete"}',
      }).expect(400);
      expect(res.body.message).toMatch(/Digest header does not match the body/);
    });

    it('answers 400 when the signature leaves out the digest or the request target', async () => {
      const withoutDigest = await signedInbox(t, user.user.id, ACTIVITY, {
        keyId,
        privateKey: sender.privateKey,
        headers: ['(request-target)', 'host', 'date'],
      }).expect(400);
      expect(withoutDigest.body.message).toMatch(/digest was not a signed header/);
      const withoutTarget = await signedInbox(t, user.user.id, ACTIVITY, {
        keyId,
        privateKey: sender.privateKey,
        headers: ['host', 'date', 'digest'],
      }).expect(400);
      expect(withoutTarget.body.message).toMatch(/\(request-target\) was not a signed header/);
    });

    it('answers 400 to a stale date', async () => {
      const res = await signedInbox(t, user.user.id, ACTIVITY, {
        keyId,
        privateKey: sender.privateKey,
        date: new Date(Date.now() - 3_600_000),
      }).expect(400);
      expect(res.body.message).toMatch(/clock skew/);
    });

    it('answers 400 when the key cannot be fetched', async () => {
      const missing = await signedInbox(t, user.user.id, ACTIVITY, {
        keyId: remote.url('/actors/missing#main-key'),
        privateKey: sender.privateKey,
      }).expect(400);
      expect(missing.body.message).toBe(UNREACHABLE);
      const ftp = await signedInbox(t, user.user.id, ACTIVITY, {
        keyId: 'ftp://127.0.0.1/key',
        privateKey: sender.privateKey,
      }).expect(400);
      expect(ftp.body.message).toMatch(/ftp: URLs are not fetched/);
    });

    it('fetches a key once and keeps it', async () => {
      const pair = rsaKeyPair();
      const cachedKeyId = remote.publishActor('/actors/cached', pair.publicKeyPem);
      await signedInbox(t, user.user.id, ACTIVITY, { keyId: cachedKeyId, privateKey: pair.privateKey }).expect(204);
      await signedInbox(t, user.user.id, ACTIVITY, { keyId: cachedKeyId, privateKey: pair.privateKey }).expect(204);
      expect(remote.fetches.get('/actors/cached')).toBe(1);
    });

    it('fetches the key again when the actor rotated it', async () => {
      const old = rsaKeyPair();
      const rotatingKeyId = remote.publishActor('/actors/rotating', old.publicKeyPem);
      await signedInbox(t, user.user.id, ACTIVITY, { keyId: rotatingKeyId, privateKey: old.privateKey }).expect(204);
      const fresh = rsaKeyPair();
      remote.publishActor('/actors/rotating', fresh.publicKeyPem);
      await signedInbox(t, user.user.id, ACTIVITY, { keyId: rotatingKeyId, privateKey: fresh.privateKey }).expect(204);
    });

    it('answers the same text for a closed port, a 404, a document too large and no key, naming neither port nor error', async () => {
      const closed = net.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      remote.documents.set('/actors/huge', { type: 'Person', padding: 'x'.repeat(1024 * 1024 + 1) });
      remote.documents.set('/actors/keyless', { type: 'Person' });
      const keyIds = [
        `http://127.0.0.1:${port}/actor#main-key`,
        remote.url('/actors/missing#main-key'),
        remote.url('/actors/huge#main-key'),
        remote.url('/actors/keyless#main-key'),
      ];
      for (const unreachableKey of keyIds) {
        const res = await signedInbox(t, user.user.id, ACTIVITY, {
          keyId: unreachableKey,
          privateKey: sender.privateKey,
        }).expect(400);
        expect(res.body.message).toBe(UNREACHABLE);
      }
    });

    it('gives up a key fetch at the deadline, however slowly the other server keeps answering', async () => {
      // Headers at once, then a byte every 100 ms: never idle, never done.
      let trickleClosed!: Promise<void>;
      const trickle = http.createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/activity+json' });
        const timer = setInterval(() => res.write(' '), 100);
        trickleClosed = new Promise((resolve) =>
          res.on('close', () => {
            clearInterval(timer);
            resolve();
          }),
        );
      });
      await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
      try {
        const keyId = `http://127.0.0.1:${(trickle.address() as AddressInfo).port}/actor#main-key`;
        const res = await signedInbox(t, user.user.id, ACTIVITY, { keyId, privateKey: sender.privateKey }).expect(400);
        expect(res.body.message).toBe(UNREACHABLE);
        await trickleClosed;
      } finally {
        trickle.closeAllConnections();
        await new Promise((resolve) => trickle.close(resolve));
      }
    }, 8000);

    it('answers a delivery to the inbox of a user the caller may not see as for an unknown id, before any check', async () => {
      const hidden = await createTestUser(t, { fields: { visibility: 2 } });
      const unknown = await signedInbox(t, 999999, ACTIVITY, { keyId, privateKey: sender.privateKey }).expect(404);
      const invisible = await signedInbox(t, hidden.user.id, ACTIVITY, { keyId, privateKey: sender.privateKey }).expect(
        404,
      );
      expect(invisible.body).toEqual(unknown.body);
      const unsigned = await t
        .request()
        .post(inboxPath(hidden.user.id))
        .set('Content-Type', 'application/activity+json')
        .send(ACTIVITY)
        .expect(404);
      expect(unsigned.body).toEqual(unknown.body);
    });

    it('answers 404 for an unknown user', async () => {
      await signedInbox(t, 999999, ACTIVITY, { keyId, privateKey: sender.privateKey }).expect(404);
    });
  });
});

describe('federation with the default address rule', () => {
  let t: TestApp;
  let user: TestUser;
  let remote: ActorServer;
  const sender = rsaKeyPair();

  beforeAll(async () => {
    // Federation has an allow list of its own: the migrations setting does not open local networks to it.
    t = await startTestApp({ ANVIL__migrations__ALLOW_LOCALNETWORKS: 'true' });
    user = await createTestUser(t);
    remote = new ActorServer();
    await remote.start();
  });
  afterAll(async () => {
    await remote.close();
    await t.close();
  });

  it('refuses to fetch keys from loopback addresses (400) without contacting them', async () => {
    const keyId = remote.publishActor('/actors/local', sender.publicKeyPem);
    const literal = await signedInbox(t, user.user.id, ACTIVITY, { keyId, privateKey: sender.privateKey }).expect(400);
    expect(literal.body.message).toBe(UNREACHABLE);
    const named = await signedInbox(t, user.user.id, ACTIVITY, {
      keyId: keyId.replace('127.0.0.1', 'localhost'),
      privateKey: sender.privateKey,
    }).expect(400);
    expect(named.body.message).toBe(UNREACHABLE);
    expect(remote.fetches.size).toBe(0);
  });
});

describe('a key fetch whose client went away', () => {
  let t: TestApp;
  let user: TestUser;
  let server: Server;
  let base: string;
  const sender = rsaKeyPair();

  beforeAll(async () => {
    t = await startTestApp({
      ANVIL__federation__ALLOWED_HOST_LIST: 'loopback',
      ANVIL__federation__FETCH_TIMEOUT: '60s',
    });
    user = await createTestUser(t);
    ({ server, base } = await listen(t));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it('is abandoned: the other server sees its connection closed long before the deadline', async () => {
    let connected!: () => void;
    const fetching = new Promise<void>((resolve) => (connected = resolve));
    let abandoned!: () => void;
    const closed = new Promise<void>((resolve) => (abandoned = resolve));
    const silent = http.createServer((req) => {
      req.socket.on('close', abandoned);
      connected();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const keyId = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/actor#main-key`;
      const client = http.request(`${base}${inboxPath(user.user.id).slice(1)}`, {
        method: 'POST',
        headers: signedHeaders(user.user.id, ACTIVITY, { keyId, privateKey: sender.privateKey }),
      });
      client.on('error', () => {});
      client.end(ACTIVITY);
      await fetching;
      client.destroy();
      await closed;
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 5000);
});

describe('federation off', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await startTestApp({ ANVIL__federation__ENABLED: 'false' });
    user = await createTestUser(t);
  });
  afterAll(() => t.close());

  it('answers 404 for the actor and its inbox', async () => {
    await t.request().get(`/api/v1/activitypub/user-id/${user.user.id}`).expect(404);
    await t
      .request()
      .post(`/api/v1/activitypub/user-id/${user.user.id}/inbox`)
      .set('Content-Type', 'application/activity+json')
      .send(ACTIVITY)
      .expect(404);
  });
});
