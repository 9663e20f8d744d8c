// The addresses the NuGet feeds link to, under the registry's root: ids and versions lower-cased as the V3
// client asks for them (learn.microsoft.com/nuget/api/package-base-address-resource).
const segment = (text: string) => encodeURIComponent(text.toLowerCase());

export const nugetLinks = {
  registrationIndex: (base: string, id: string) => `${base}/registration/${segment(id)}/index.json`,
  registrationLeaf: (base: string, id: string, version: string) =>
    `${base}/registration/${segment(id)}/${segment(version)}.json`,
  packageContent: (base: string, id: string, version: string) =>
    `${base}/package/${segment(id)}/${segment(version)}/${segment(`${id}.${version}.nupkg`)}`,
  /** The V2 feed's address of one entry. */
  v2Entry: (base: string, id: string, version: string) =>
    `${base}/Packages(Id='${encodeURIComponent(id)}',Version='${encodeURIComponent(version)}')`,
};

/** The stored names of a version's files, lower-cased as Forgejo stores them. */
export const nugetFileNames = {
  package: (id: string, version: string) => `${id}.${version}.nupkg`.toLowerCase(),
  symbols: (id: string, version: string) => `${id}.${version}.snupkg`.toLowerCase(),
  nuspec: (id: string) => `${id}.nuspec`.toLowerCase(),
};
