// NuGet packages for the tests, built as `dotnet pack` lays them out: a zip with the .nuspec at its root, the
// package's parts and its files; symbol packages with Portable PDB files whose id the test chooses.
import yazl from 'yazl';

export interface NuspecOptions {
  id: string;
  version: string;
  authors?: string;
  description?: string;
  symbols?: boolean;
  /** Inserted into <metadata> as is. */
  extra?: string;
}

export function nuspecXml(options: NuspecOptions): string {
  const packageTypes = options.symbols ? '<packageTypes><packageType name="SymbolsPackage" /></packageTypes>' : '';
  return `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd">
  <metadata>
    <id>${options.id}</id>
    <version>${options.version}</version>
    <authors>${options.authors ?? 'Test Author'}</authors>
    <description>${options.description ?? 'A test package'}</description>
    ${packageTypes}${options.extra ?? ''}
  </metadata>
</package>
`;
}

/** A zip of these entries (deflated), as bytes. */
export function zip(entries: Record<string, Buffer | string>): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) {
    archive.addBuffer(typeof content === 'string' ? Buffer.from(content) : content, name);
  }
  archive.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    archive.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    archive.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    archive.outputStream.on('error', reject);
  });
}

export function nupkg(options: NuspecOptions, files: Record<string, Buffer | string> = {}): Promise<Buffer> {
  return zip({
    '_rels/.rels': '<Relationships />',
    [`${options.id}.nuspec`]: nuspecXml(options),
    [`lib/net8.0/${options.id}.dll`]: Buffer.from('MZ not really a dll'),
    '[Content_Types].xml': '<Types />',
    ...files,
  });
}

/** A minimal Portable PDB: the metadata root and a #Pdb stream whose first 16 bytes are the GUID. */
export function portablePdb(guid: Buffer): Buffer {
  const version = Buffer.alloc(12);
  version.write('PDB v1.0');
  const header = Buffer.alloc(16);
  header.writeUInt32LE(0x424a5342, 0);
  header.writeUInt16LE(1, 4);
  header.writeUInt16LE(1, 6);
  header.writeInt32LE(version.length, 12);
  const counts = Buffer.alloc(4);
  counts.writeUInt16LE(1, 2);
  const streamHeader = Buffer.alloc(16);
  const offset = header.length + version.length + counts.length + streamHeader.length;
  streamHeader.writeUInt32LE(offset, 0);
  streamHeader.writeUInt32LE(20, 4);
  streamHeader.write('#Pdb', 8);
  return Buffer.concat([header, version, counts, streamHeader, guid, Buffer.alloc(4)]);
}

/** The id a symbol client asks for: the GUID's fields in their written order, as lower-case hex. */
export function pdbIdOf(guid: Buffer): string {
  return [
    guid.readUInt32LE(0).toString(16).padStart(8, '0'),
    guid.readUInt16LE(4).toString(16).padStart(4, '0'),
    guid.readUInt16LE(6).toString(16).padStart(4, '0'),
    guid.subarray(8).toString('hex'),
  ].join('');
}

export function snupkg(options: NuspecOptions, pdbs: Record<string, Buffer>): Promise<Buffer> {
  return zip({
    '_rels/.rels': '<Relationships />',
    [`${options.id}.nuspec`]: nuspecXml({ ...options, symbols: true }),
    '[Content_Types].xml': '<Types />',
    ...pdbs,
  });
}
