// Reads an ALT pkglist with librpm itself (the library apt-rpm reads pkglists with), through the rpm module of the
// system's Python (python3-rpm, which dnf brings): the headers' names and the tags genpkglist adds.
import { execFileSync } from 'node:child_process';

export interface PkglistEntry {
  name: string;
  version: string;
  release: string;
  arch: string;
  requires: string[];
  fileName: string;
  fileSize: number;
  md5: string;
  blake2b: string;
  directory: string;
}

const SCRIPT = `
import json, os, sys, tempfile
import rpm
fd, path = tempfile.mkstemp()
os.write(fd, sys.stdin.buffer.read())
os.close(fd)
def text(value):
    return value.decode() if isinstance(value, bytes) else value
try:
    out = []
    for h in rpm.readHeaderListFromFile(path):
        out.append({
            'name': text(h['name']), 'version': text(h['version']), 'release': text(h['release']),
            'arch': text(h['arch']), 'requires': [text(r) for r in h['requirename']],
            'fileName': text(h[1000000]), 'fileSize': h[1000001], 'md5': text(h[1000005]),
            'blake2b': text(h[1000009]), 'directory': text(h[1000010]),
        })
    print(json.dumps(out))
finally:
    os.unlink(path)
`;

/** The packages of a pkglist as librpm reads them; throws when librpm cannot. */
export function readPkglist(bytes: Buffer): PkglistEntry[] {
  const out = execFileSync('/usr/bin/python3', ['-c', SCRIPT], { input: bytes });
  return JSON.parse(out.toString()) as PkglistEntry[];
}
