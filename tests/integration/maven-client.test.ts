// The Maven registry proven on a real classpath: a Java library compiled with javac and packed with jar is deployed
// over HTTP in `mvn deploy`'s request sequence to a running Anvil, resolved as Maven does (metadata, POM, jar, each
// checked against its .sha1) into a fresh local repository, and a consumer is compiled against it with javac -cp
// and run with java -cp. Then: a private organization hidden from outsiders, token scopes, and a version deleted
// through the API no longer resolving. (Debian's mvn has no deploy or dependency plugins offline, so javac and
// java stand in for it.)
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AnvilProcess } from '../helpers/anvil-process.ts';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';
import { deployRelease, MavenRequestError, resolveRelease } from '../helpers/maven.ts';

const run = promisify(execFile);
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const hasJava = has('java') && has('javac') && has('jar');
if (!hasJava) {
  if (process.env.CI) throw new Error('java, javac or jar is missing: .ci/run installs default-jdk-headless');
  console.log('maven client test skipped: apt-get install default-jdk-headless (java, javac and jar)');
}
const describeWithJava = hasJava ? describe : describe.skip;

const GROUP = 'org.anvil.probe';
const ARTIFACT = 'greeter';

describeWithJava('a Java library through Anvil onto a classpath', () => {
  let anvil: ClientTestServer;
  let work: string;
  let server: AnvilProcess;
  let aliceToken: string;
  /** The jar of each library version, as built here. */
  const jars = new Map<string, Buffer>();

  const api = (pathName: string, init: RequestInit & { auth?: string } = {}) =>
    fetch(`${server.base}api/v1/${pathName}`, {
      ...init,
      headers: { 'Content-Type': 'application/json', Authorization: init.auth ?? `token ${aliceToken}` },
    });

  /** A token of alice's with these scopes. */
  async function scopedToken(scopes: string[]): Promise<string> {
    const res = await api('users/alice/tokens', {
      method: 'POST',
      auth: basic('alice', 'alice-password'),
      body: JSON.stringify({ name: `t${Math.random().toString(36).slice(2)}`, scopes }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { sha1: string }).sha1;
  }

  /** What Maven sends from a settings.xml <server> with a username and password (or token). */
  const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
  const repository = (owner: string) => `${server.base}api/packages/${owner}/maven`;
  const java = (args: string[], cwd: string) => run('java', args, { cwd, env: { ...process.env, HOME: work } });
  const javac = (args: string[], cwd: string) => run('javac', args, { cwd, env: { ...process.env, HOME: work } });

  /** The library at one version: javac into classes, then jar into a jar file; answers its bytes. */
  async function buildLibrary(version: string): Promise<Buffer> {
    const dir = path.join(work, `lib-${version}`);
    const source = path.join(dir, 'src', ...GROUP.split('.'));
    fs.mkdirSync(source, { recursive: true });
    fs.writeFileSync(
      path.join(source, 'Greeter.java'),
      `package ${GROUP};\n\npublic final class Greeter {\n  public static String greet(String who) {\n` +
        `    return "Hello, " + who + ", from greeter ${version}";\n  }\n}\n`,
    );
    await javac(['-d', 'classes', path.join(source, 'Greeter.java')], dir);
    await run('jar', ['--create', '--file', `${ARTIFACT}-${version}.jar`, '-C', 'classes', '.'], { cwd: dir });
    return fs.readFileSync(path.join(dir, `${ARTIFACT}-${version}.jar`));
  }

  /**
   * Resolves the library into a fresh local repository, compiles the consumer against the resolved jar and runs
   * it; answers what it prints and the version resolved.
   */
  async function resolveCompileRun(owner: string, options: { version?: string; auth?: string } = {}) {
    const localRepo = fs.mkdtempSync(path.join(work, 'm2-'));
    const resolved = await resolveRelease(repository(owner), localRepo, GROUP, ARTIFACT, options);
    const consumer = fs.mkdtempSync(path.join(work, 'consumer-'));
    fs.writeFileSync(
      path.join(consumer, 'Main.java'),
      `import ${GROUP}.Greeter;\n\npublic class Main {\n  public static void main(String[] args) {\n` +
        `    System.out.println(Greeter.greet("Anvil"));\n  }\n}\n`,
    );
    await javac(['-cp', resolved.jar, '-d', 'out', 'Main.java'], consumer);
    const { stdout } = await java(['-cp', [resolved.jar, 'out'].join(path.delimiter), 'Main'], consumer);
    return { output: stdout.trim(), resolved, localRepo };
  }

  /** The status of the request a failed resolution stopped at, with its URL's last segment. */
  const failure = (owner: string, options: { version?: string; auth?: string } = {}) =>
    resolveCompileRun(owner, options).then(
      () => 'resolved',
      (error: unknown) => {
        if (!(error instanceof MavenRequestError)) throw error;
        return `${error.status} ${error.url.split('/').pop()}`;
      },
    );

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-maven-'));
    for (const version of ['1.0', '1.1']) jars.set(version, await buildLibrary(version));
    anvil = await startClientTestServer({ name: 'maven', work, users: ['alice', 'bob'] });
    server = anvil.server;
    aliceToken = anvil.tokens.alice;
  }, 180_000);

  afterAll(async () => {
    await anvil?.stop();
  });

  it('deploys two versions, resolves the release into a fresh local repository and runs a consumer against it', async () => {
    for (const version of ['1.0', '1.1']) {
      await deployRelease(
        repository('alice'),
        basic('alice', aliceToken),
        { groupId: GROUP, artifactId: ARTIFACT, version },
        jars.get(version)!,
      );
    }
    const latest = await resolveCompileRun('alice');
    expect(latest.output).toBe('Hello, Anvil, from greeter 1.1');
    expect(latest.resolved.version).toBe('1.1');
    expect(fs.readFileSync(latest.resolved.jar)).toEqual(jars.get('1.1'));
    expect(path.relative(latest.localRepo, latest.resolved.jar)).toBe(
      path.join('org', 'anvil', 'probe', ARTIFACT, '1.1', `${ARTIFACT}-1.1.jar`),
    );
    const pinned = await resolveCompileRun('alice', { version: '1.0' });
    expect(pinned.output).toBe('Hello, Anvil, from greeter 1.0');

    const listed = await api('packages/alice?type=maven');
    const packages = (await listed.json()) as { name: string; version: string; type: string }[];
    expect(
      packages
        .map(({ type, name, version }) => ({ type, name, version }))
        .sort((a, b) => a.version.localeCompare(b.version)),
    ).toEqual([
      { type: 'maven', name: `${GROUP}:${ARTIFACT}`, version: '1.0' },
      { type: 'maven', name: `${GROUP}:${ARTIFACT}`, version: '1.1' },
    ]);
  }, 120_000);

  it("keeps a private organization's library from outsiders and anonymous resolution; token scopes decide", async () => {
    const org = await api('orgs', {
      method: 'POST',
      body: JSON.stringify({ username: 'hidden', visibility: 'private' }),
    });
    expect(org.status).toBe(201);
    const reader = await scopedToken(['read:package']);
    const other = await scopedToken(['read:repository']);
    const coordinates = { groupId: GROUP, artifactId: ARTIFACT, version: '1.0' };
    await expect(
      deployRelease(repository('hidden'), basic('alice', reader), coordinates, jars.get('1.0')!),
    ).rejects.toMatchObject({ status: 403 });
    await deployRelease(repository('hidden'), basic('alice', aliceToken), coordinates, jars.get('1.0')!);

    expect((await resolveCompileRun('hidden', { auth: basic('alice', reader) })).output).toBe(
      'Hello, Anvil, from greeter 1.0',
    );
    expect((await resolveCompileRun('hidden', { auth: `token ${reader}` })).output).toBe(
      'Hello, Anvil, from greeter 1.0',
    );
    expect(await failure('hidden')).toBe('401 maven-metadata.xml');
    expect(await failure('hidden', { version: '1.0' })).toBe('401 greeter-1.0.pom');
    expect(await failure('hidden', { auth: basic('bob', 'bob-password') })).toBe('404 maven-metadata.xml');
    expect(await failure('hidden', { version: '1.0', auth: basic('bob', 'bob-password') })).toBe('404 greeter-1.0.pom');
    expect(await failure('hidden', { auth: basic('alice', other) })).toBe('403 maven-metadata.xml');
    expect(await failure('hidden', { version: '1.0', auth: basic('alice', other) })).toBe('403 greeter-1.0.pom');
  }, 120_000);

  it('no longer resolves a version deleted through the API', async () => {
    const removed = await api(`packages/alice/maven/${encodeURIComponent(`${GROUP}:${ARTIFACT}`)}/1.1`, {
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);
    expect(await failure('alice', { version: '1.1' })).toBe('404 greeter-1.1.pom');
    const jarOnly = await fetch(`${repository('alice')}/org/anvil/probe/${ARTIFACT}/1.1/${ARTIFACT}-1.1.jar`);
    expect(jarOnly.status).toBe(404);
    // The metadata names what is left, and the release resolved is the one that remains.
    expect((await resolveCompileRun('alice')).output).toBe('Hello, Anvil, from greeter 1.0');

    const last = await api(`packages/alice/maven/${encodeURIComponent(`${GROUP}:${ARTIFACT}`)}/1.0`, {
      method: 'DELETE',
    });
    expect(last.status).toBe(204);
    expect(await failure('alice')).toBe('404 maven-metadata.xml');
    expect(await failure('alice', { version: '1.0' })).toBe('404 greeter-1.0.pom');
  }, 120_000);
});
