// Pure rules of the PyPI registry: names and versions, the upload form, the simple index pages.
import { isValidProjectName, isValidProjectVersion, normalizeProjectName } from '../../src/packages/pypi/pypi-names.ts';
import { assertDigestsMatch, readUploadForm } from '../../src/packages/pypi/upload-form.ts';
import { simpleIndexHtml, simpleIndexJson, type ProjectIndex } from '../../src/packages/pypi/simple-index.ts';
import { Readable } from 'node:stream';
import { readUploadParts } from '../../src/packages/pypi/upload-stream.ts';
import { BadRequestError } from '../../src/domain/errors.ts';

const SHA256 = 'a'.repeat(64);
const MD5 = 'b'.repeat(32);

describe('project names and versions', () => {
  it.each([
    ['Friendly-Bard', 'friendly-bard'],
    ['FRIENDLY_BARD', 'friendly-bard'],
    ['friendly.bard', 'friendly-bard'],
    ['friendly--_.bard', 'friendly-bard'],
    ['a', 'a'],
  ])('normalises %p to %p', (name, normal) => expect(normalizeProjectName(name)).toBe(normal));

  it.each(['a', 'A1', 'my.pkg_name-2'])('accepts name %p', (name) => expect(isValidProjectName(name)).toBe(true));
  it.each(['', '-a', 'a-', '.a', 'a b', 'a/b', 'ä', 'a\n'])('refuses name %p', (name) =>
    expect(isValidProjectName(name)).toBe(false),
  );
  it.each(['1', '1.0', '1!2.0', '1.0a1', '1.0.post1', '1.0.dev3', '1.0rc1.post2.dev3', '1.0+local.7', 'v2.1', '1.0-1'])(
    'accepts version %p',
    (version) => expect(isValidProjectVersion(version)).toBe(true),
  );
  it.each(['', 'latest', '1.0/..', '1.0 ', '1..0', '1.0+', '../1'])('refuses version %p', (version) =>
    expect(isValidProjectVersion(version)).toBe(false),
  );
});

describe('the upload form', () => {
  const form = (extra: Record<string, string> = {}) =>
    new Map(
      Object.entries({
        ':action': 'file_upload',
        protocol_version: '1',
        name: 'My_Pkg',
        version: '1.2.0',
        filetype: 'bdist_wheel',
        summary: 'A package',
        description: '# Readme',
        author: 'Ann',
        license: 'MIT',
        requires_python: '>=3.8',
        home_page: 'https://example.com/p',
        sha256_digest: SHA256.toUpperCase(),
        md5_digest: MD5,
        ...extra,
      }),
    );

  it('reads the version, the file and the metadata', () => {
    expect(readUploadForm(form(), 'my_pkg-1.2.0-py3-none-any.whl')).toEqual({
      name: 'My-Pkg',
      version: '1.2.0',
      fileName: 'my_pkg-1.2.0-py3-none-any.whl',
      fileType: 'bdist_wheel',
      sha256: SHA256,
      md5: MD5,
      metadata: {
        author: 'Ann',
        summary: 'A package',
        description: '# Readme',
        project_url: 'https://example.com/p',
        license: 'MIT',
        requires_python: '>=3.8',
      },
    });
  });

  it('takes the home page from project_urls first, and no URL that is not http(s)', () => {
    const urls = ['Source, https://example.com/src', 'Home-Page, https://example.com/home'];
    expect(readUploadForm(form(), 'p.tar.gz', urls).metadata.project_url).toBe('https://example.com/home');
    expect(readUploadForm(form({ home_page: 'javascript:alert(1)' }), 'p.tar.gz').metadata.project_url).toBe('');
  });

  it.each([
    [{ name: '' }, 'invalid name or version'],
    [{ name: '../x' }, 'invalid name or version'],
    [{ version: 'one' }, 'invalid name or version'],
    [{ filetype: 'exe' }, 'unknown filetype "exe"'],
    [{ sha256_digest: 'xyz' }, 'sha256_digest is not a hex digest'],
    [{ sha256_digest: '', md5_digest: '' }, 'the upload has no sha256_digest or md5_digest'],
    [{ ':action': 'remove_pkg' }, 'unsupported action "remove_pkg"'],
  ])('refuses %p with 400', (extra, message) => {
    expect(() => readUploadForm(form(extra), 'p.tar.gz')).toThrow(new BadRequestError(message));
  });

  it.each(['', '.', '..', 'a/b.whl', 'a\\b.whl', 'a\nb'])('refuses file name %p', (name) =>
    expect(() => readUploadForm(form(), name)).toThrow(BadRequestError),
  );

  it('checks the digests the client sent against the stored bytes', () => {
    const stored = { size: 1, md5: MD5, sha1: 'c'.repeat(40), sha256: SHA256, sha512: 'd'.repeat(128) };
    expect(() => assertDigestsMatch({ sha256: SHA256, md5: MD5 }, stored)).not.toThrow();
    expect(() => assertDigestsMatch({ md5: MD5 }, stored)).not.toThrow();
    expect(() => assertDigestsMatch({ sha256: 'e'.repeat(64) }, stored)).toThrow(new BadRequestError('hash mismatch'));
    expect(() => assertDigestsMatch({ sha256: SHA256, md5: 'f'.repeat(32) }, stored)).toThrow(BadRequestError);
  });
});

describe('the simple index', () => {
  const index: ProjectIndex = {
    name: 'my-pkg',
    versions: ['1.0', '1.1'],
    files: [
      {
        version: '1.0',
        fileName: 'my_pkg-1.0.tar.gz',
        url: 'http://h/api/packages/o/pypi/files/my-pkg/1.0/my_pkg-1.0.tar.gz',
        sha256: SHA256,
        size: 10,
        uploadedAt: new Date('2024-01-02T03:04:05Z'),
        requiresPython: '>=3.8,<4 "&\'',
      },
      {
        version: '1.1',
        fileName: 'my_pkg-1.1-py3-none-any.whl',
        url: 'http://h/api/packages/o/pypi/files/my-pkg/1.1/my_pkg-1.1-py3-none-any.whl',
        sha256: SHA256,
        size: 20,
        uploadedAt: new Date('2024-02-02T03:04:05Z'),
        requiresPython: '',
      },
    ],
  };

  it('links every file with its sha256 fragment and escaped Requires-Python (PEP 503)', () => {
    const html = simpleIndexHtml(index);
    expect(html).toContain('<title>Links for my-pkg</title>');
    expect(html).toContain(
      '<a href="http://h/api/packages/o/pypi/files/my-pkg/1.0/my_pkg-1.0.tar.gz#sha256=' +
        SHA256 +
        '" data-requires-python="&gt;=3.8,&lt;4 &quot;&amp;&#39;">my_pkg-1.0.tar.gz</a><br>',
    );
    expect(html).toContain(`my_pkg-1.1-py3-none-any.whl#sha256=${SHA256}">my_pkg-1.1-py3-none-any.whl</a>`);
  });

  it('answers the same in JSON (PEP 691, PEP 700)', () => {
    expect(simpleIndexJson(index)).toEqual({
      meta: { 'api-version': '1.1' },
      name: 'my-pkg',
      versions: ['1.0', '1.1'],
      files: [
        {
          filename: 'my_pkg-1.0.tar.gz',
          url: index.files[0].url,
          hashes: { sha256: SHA256 },
          'requires-python': '>=3.8,<4 "&\'',
          size: 10,
          'upload-time': '2024-01-02T03:04:05.000Z',
        },
        {
          filename: 'my_pkg-1.1-py3-none-any.whl',
          url: index.files[1].url,
          hashes: { sha256: SHA256 },
          size: 20,
          'upload-time': '2024-02-02T03:04:05.000Z',
        },
      ],
    });
  });
});

describe('the multipart body of an upload', () => {
  const boundary = 'xYzBoundary';
  const part = (name: string, value: string, fileName?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${fileName ? `; filename="${fileName}"` : ''}\r\n\r\n${value}\r\n`;
  const request = (body: string) => ({
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: Readable.from([Buffer.from(body)]),
  });
  const text = async (stream: NodeJS.ReadableStream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString();
  };

  it('hands over the fields before the file, and the file as a stream', async () => {
    const { headers, body } = request(
      part('name', 'pkg') +
        part('project_urls', 'Homepage, https://a') +
        part('project_urls', 'Source, https://b') +
        part('gpg_signature', 'sig', 'p.asc') +
        part('content', 'the bytes', 'pkg-1.0.tar.gz') +
        `--${boundary}--\r\n`,
    );
    const parts = await readUploadParts(headers, body);
    expect(parts.fields.get('name')).toBe('pkg');
    expect(parts.projectUrls).toEqual(['Homepage, https://a', 'Source, https://b']);
    expect(parts.fileName).toBe('pkg-1.0.tar.gz');
    expect(await text(parts.file)).toBe('the bytes');
    await expect(parts.finished).resolves.toBeUndefined();
  });

  it('answers 400 for a body without the file or that is no form', async () => {
    const { headers, body } = request(part('name', 'pkg') + `--${boundary}--\r\n`);
    await expect(readUploadParts(headers, body)).rejects.toThrow(
      new BadRequestError('the upload has no "content" file'),
    );
    await expect(readUploadParts({ 'content-type': 'application/json' }, Readable.from(['{}']))).rejects.toThrow(
      BadRequestError,
    );
  });
});
