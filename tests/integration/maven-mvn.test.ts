// The Maven registry driven by the real `mvn`: a library project deployed with `mvn deploy`, a consumer project
// compiled with `mvn compile` against it from a fresh local repository and run with java -cp, `mvn dependency:get`;
// a private organization hidden from outsiders, token scopes, and a version deleted through the API no longer
// resolving. Maven's own plugins come from Debian's packages (/usr/share/maven-repo, a mirror of Central here), so
// nothing is fetched from the network.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AnvilProcess } from '../helpers/anvil-process.ts';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';

const run = promisify(execFile);
const DEBIAN_REPO = '/usr/share/maven-repo';
/** The plugins a jar project's deploy and a dependency:get use, as Debian's libmaven-*-plugin-java packages hold them. */
const PLUGINS = ['resources', 'compiler', 'surefire', 'jar', 'install', 'deploy', 'dependency'];
const missing = [
  ...['mvn', 'java'].filter((command) => spawnSync('sh', ['-c', `command -v ${command}`]).status !== 0),
  ...PLUGINS.map((name) => `maven-${name}-plugin`).filter(
    (plugin) => !fs.existsSync(path.join(DEBIAN_REPO, 'org/apache/maven/plugins', plugin)),
  ),
  ...(fs.existsSync(path.join(DEBIAN_REPO, 'org/junit/junit-bom')) ? [] : ['junit-bom']),
];
if (missing.length > 0) {
  if (process.env.CI) throw new Error(`${missing.join(', ')} missing: .ci/run installs maven and its plugin packages`);
  console.log(`mvn client test skipped, missing ${missing.join(', ')}: see .ci/run for the Debian packages`);
}
const describeWithMvn = missing.length === 0 ? describe : describe.skip;

const GROUP = 'org.anvil.mvnprobe';
const ARTIFACT = 'greeter';

describeWithMvn('mvn deploy, compile and dependency:get against a running Anvil', () => {
  let anvil: ClientTestServer;
  let work: string;
  let server: AnvilProcess;
  let aliceToken: string;

  const api = (pathName: string, init: RequestInit & { auth?: string } = {}) =>
    fetch(`${server.base}api/v1/${pathName}`, {
      ...init,
      headers: { 'Content-Type': 'application/json', Authorization: init.auth ?? `token ${aliceToken}` },
    });

  async function scopedToken(scopes: string[]): Promise<string> {
    const res = await api('users/alice/tokens', {
      method: 'POST',
      auth: `Basic ${Buffer.from('alice:alice-password').toString('base64')}`,
      body: JSON.stringify({ name: `t${Math.random().toString(36).slice(2)}`, scopes }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { sha1: string }).sha1;
  }

  const repository = (owner: string) => `${server.base}api/packages/${owner}/maven`;
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

  /** A settings.xml with Anvil's repository of `owner` as `anvil` (with a server entry when credentials are given). */
  function settings(owner: string, user?: string, secret?: string): string {
    const file = path.join(fs.mkdtempSync(path.join(work, 'settings-')), 'settings.xml');
    const server = user
      ? `<server><id>anvil</id><username>${user}</username><password>${escape(secret!)}</password></server>`
      : '';
    fs.writeFileSync(
      file,
      `<settings>
  <mirrors><mirror><id>debian</id><mirrorOf>central</mirrorOf><url>file://${DEBIAN_REPO}</url></mirror></mirrors>
  <servers>${server}</servers>
  <profiles><profile><id>anvil</id><repositories>
    <repository><id>anvil</id><url>${repository(owner)}</url><snapshots><enabled>false</enabled></snapshots></repository>
  </repositories></profile></profiles>
  <activeProfiles><activeProfile>anvil</activeProfile></activeProfiles>
</settings>
`,
    );
    return file;
  }

  /** mvn in batch mode with these settings, with nothing of Anvil's in its local repository; answers its output (it throws on failure). */
  async function mvn(
    settingsFile: string,
    args: string[],
    cwd = work,
    localRepo = path.join(work, 'm2'),
  ): Promise<string> {
    // Maven's plugins stay in the local repository between runs (copying them is most of a run's time); what came
    // from Anvil does not, so every run resolves it afresh.
    fs.rmSync(path.join(localRepo, ...GROUP.split('.')), { recursive: true, force: true });
    try {
      const { stdout } = await run('mvn', ['-B', '-s', settingsFile, `-Dmaven.repo.local=${localRepo}`, ...args], {
        cwd,
        env: { ...process.env, HOME: work, MAVEN_OPTS: '-Xmx256m' },
        maxBuffer: 64 * 1024 * 1024,
      });
      return stdout;
    } catch (error) {
      const { stdout } = error as { stdout: string };
      throw new Error(
        `mvn ${args.join(' ')} failed:\n${stdout
          .split('\n')
          .filter((line) => line.startsWith('[ERROR]'))
          .join('\n')}`,
        { cause: error },
      );
    }
  }

  /** A project directory with this POM body and one Java source. */
  function project(name: string, pomBody: string, source: { file: string; text: string }): string {
    const dir = fs.mkdtempSync(path.join(work, `${name}-`));
    fs.mkdirSync(path.join(dir, 'src/main/java', path.dirname(source.file)), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src/main/java', source.file), source.text);
    fs.writeFileSync(
      path.join(dir, 'pom.xml'),
      `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <properties><maven.compiler.release>17</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
  ${pomBody}
</project>
`,
    );
    return dir;
  }

  /** `mvn deploy` of the library at `version` to `owner`'s repository. */
  const deploy = (owner: string, version: string, user: string, secret: string) =>
    mvn(
      settings(owner, user, secret),
      ['deploy'],
      project(
        'library',
        `<groupId>${GROUP}</groupId><artifactId>${ARTIFACT}</artifactId><version>${version}</version>
  <distributionManagement><repository><id>anvil</id><url>${repository(owner)}</url></repository></distributionManagement>`,
        {
          file: `${GROUP.replace(/\./g, '/')}/Greeter.java`,
          text: `package ${GROUP};\n\npublic final class Greeter {\n  public static String greet(String who) {\n    return "Hello, " + who + ", from mvn-deployed greeter ${version}";\n  }\n}\n`,
        },
      ),
    );

  /** `mvn compile` of a consumer depending on the library at `version`, then its class run with java -cp. */
  async function compileAndRun(owner: string, version: string, user?: string, secret?: string): Promise<string> {
    const consumer = project(
      'consumer',
      `<groupId>org.example</groupId><artifactId>consumer</artifactId><version>1</version>
  <dependencies><dependency><groupId>${GROUP}</groupId><artifactId>${ARTIFACT}</artifactId><version>${version}</version></dependency></dependencies>`,
      {
        file: 'Main.java',
        text: `import ${GROUP}.Greeter;\n\npublic class Main {\n  public static void main(String[] args) {\n    System.out.println(Greeter.greet("Anvil"));\n  }\n}\n`,
      },
    );
    const settingsFile = settings(owner, user, secret);
    const localRepo = path.join(work, 'm2');
    const output = await mvn(settingsFile, ['compile'], consumer, localRepo);
    expect(output).toContain(
      `Downloaded from anvil: ${repository(owner)}/${GROUP.replace(/\./g, '/')}/${ARTIFACT}/${version}/${ARTIFACT}-${version}.jar`,
    );
    const jar = path.join(localRepo, ...GROUP.split('.'), ARTIFACT, version, `${ARTIFACT}-${version}.jar`);
    const { stdout } = await run('java', [
      '-cp',
      [jar, path.join(consumer, 'target/classes')].join(path.delimiter),
      'Main',
    ]);
    return stdout.trim();
  }

  const dependencyGet = (owner: string, version: string, user?: string, secret?: string) =>
    mvn(settings(owner, user, secret), ['dependency:get', `-Dartifact=${GROUP}:${ARTIFACT}:${version}`]);

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-mvn-'));
    anvil = await startClientTestServer({ name: 'mvn', work, users: ['alice', 'bob'] });
    server = anvil.server;
    aliceToken = anvil.tokens.alice;
  }, 180_000);

  afterAll(async () => {
    await anvil?.stop();
  });

  it('deploys with mvn deploy, compiles a consumer with mvn compile and runs it; a second deploy is refused', async () => {
    const deployed = await deploy('alice', '1.0', 'alice', aliceToken);
    expect(deployed).toContain('BUILD SUCCESS');
    expect(deployed).toContain(
      `Uploaded to anvil: ${repository('alice')}/${GROUP.replace(/\./g, '/')}/${ARTIFACT}/maven-metadata.xml`,
    );
    expect(await compileAndRun('alice', '1.0')).toBe('Hello, Anvil, from mvn-deployed greeter 1.0');
    expect(await dependencyGet('alice', '1.0')).toContain('BUILD SUCCESS');
    await expect(deploy('alice', '1.0', 'alice', aliceToken)).rejects.toThrow(/409/);
  }, 300_000);

  it("keeps a private organization's library from outsiders; token scopes decide", async () => {
    const org = await api('orgs', {
      method: 'POST',
      body: JSON.stringify({ username: 'hidden', visibility: 'private' }),
    });
    expect(org.status).toBe(201);
    const reader = await scopedToken(['read:package']);
    const other = await scopedToken(['read:repository']);
    await expect(deploy('hidden', '2.0', 'alice', reader)).rejects.toThrow(/403/);
    await deploy('hidden', '2.0', 'alice', aliceToken);
    expect(await compileAndRun('hidden', '2.0', 'alice', reader)).toBe('Hello, Anvil, from mvn-deployed greeter 2.0');
    await expect(dependencyGet('hidden', '2.0')).rejects.toThrow(/401/);
    await expect(dependencyGet('hidden', '2.0', 'bob', 'bob-password')).rejects.toThrow(/Could not find artifact|404/);
    await expect(dependencyGet('hidden', '2.0', 'alice', other)).rejects.toThrow(/403/);
  }, 300_000);

  it('no longer resolves a version deleted through the API', async () => {
    const removed = await api(`packages/alice/maven/${encodeURIComponent(`${GROUP}:${ARTIFACT}`)}/1.0`, {
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);
    await expect(dependencyGet('alice', '1.0')).rejects.toThrow(/Could not find artifact|404/);
    await expect(compileAndRun('alice', '1.0')).rejects.toThrow(/Could not (find|resolve)|404/);
  }, 300_000);
});
