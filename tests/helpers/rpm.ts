// Builds real .rpm files for the RPM registry's tests with rpmbuild, in a temporary top directory.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface RpmSpec {
  name: string;
  version: string;
  release?: string;
  epoch?: number;
  arch?: string;
  summary?: string;
  requires?: string[];
  provides?: string[];
  conflicts?: string[];
  obsoletes?: string[];
  /** Installed path → content. */
  files?: Record<string, string>;
}

/** The built package's bytes and its file name. */
export function buildRpm(spec: RpmSpec): { bytes: Buffer; fileName: string } {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'rpmbuild-'));
  try {
    const files = spec.files ?? { [`/usr/share/${spec.name}/README`]: `${spec.name} ${spec.version}\n` };
    const install = Object.entries(files)
      .map(([file, content]) => {
        const source = Buffer.from(content).toString('base64');
        return `mkdir -p %{buildroot}${path.dirname(file)}\necho ${source} | base64 -d > %{buildroot}${file}`;
      })
      .join('\n');
    const lines = [
      `Name: ${spec.name}`,
      `Version: ${spec.version}`,
      `Release: ${spec.release ?? '1'}`,
      ...(spec.epoch === undefined ? [] : [`Epoch: ${spec.epoch}`]),
      `Summary: ${spec.summary ?? `The ${spec.name} test package`}`,
      'License: MIT',
      'URL: https://example.com/rpm',
      `BuildArch: ${spec.arch ?? 'noarch'}`,
      ...(spec.requires ?? []).map((dep) => `Requires: ${dep}`),
      ...(spec.provides ?? []).map((dep) => `Provides: ${dep}`),
      ...(spec.conflicts ?? []).map((dep) => `Conflicts: ${dep}`),
      ...(spec.obsoletes ?? []).map((dep) => `Obsoletes: ${dep}`),
      '',
      '%description',
      `A package built for the tests of ${spec.name}.`,
      '',
      '%install',
      install,
      '',
      '%files',
      ...Object.keys(files),
      '',
      '%changelog',
      '* Thu Nov 26 2026 Tester <tester@example.com> - 1',
      '- First build',
      '',
    ];
    const specFile = path.join(top, `${spec.name}.spec`);
    fs.writeFileSync(specFile, lines.join('\n'));
    execFileSync(
      'rpmbuild',
      ['-bb', '--quiet', '--define', `_topdir ${top}`, '--define', '_binary_payload w2.gzdio', specFile],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const dir = path.join(top, 'RPMS', spec.arch ?? 'noarch');
    const [fileName] = fs.readdirSync(dir);
    return { bytes: fs.readFileSync(path.join(dir, fileName!)), fileName: fileName! };
  } finally {
    fs.rmSync(top, { recursive: true, force: true });
  }
}
