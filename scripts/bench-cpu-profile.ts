// Reads a V8 .cpuprofile (node --cpu-prof) and answers where the CPU went: the top functions by self time, and the
// same time summed by module (a package under node_modules, a folder of dist/src, or node's own internals).
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function moduleOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1];
  const own = /\/(dist\/)?(src|generated)\/([^/]+)/.exec(url);
  if (own) return `${own[2]}/${own[3]}`;
  if (url.startsWith('node:')) return url.replace(/^node:(internal\/)?([^/]+).*$/, 'node:$2');
  return url;
}

function shortUrl(url: string): string {
  return url.replace(/^.*\/(node_modules|dist)\//, '$1/').replace(/^file:\/\//, '');
}

export function summariseCpuProfile(file: string, top = 20): string {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const bySite = new Map<string, number>();
  const byModule = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)') return;
    const micros = profile.timeDeltas[index] ?? 0;
    busy += micros;
    const site = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    bySite.set(site, (bySite.get(site) ?? 0) + micros);
    const module = moduleOf(frame.url, frame.functionName);
    byModule.set(module, (byModule.get(module) ?? 0) + micros);
  });
  const table = (title: string, entries: Map<string, number>) =>
    [`| ${title} | self ms | share of busy CPU |`, '|---|---|---|']
      .concat(
        [...entries]
          .sort((a, b) => b[1] - a[1])
          .slice(0, top)
          .map(
            ([name, micros]) => `| ${name} | ${(micros / 1000).toFixed(0)} | ${((100 * micros) / busy).toFixed(1)} % |`,
          ),
      )
      .join('\n');
  return `busy CPU ${(busy / 1e6).toFixed(1)} s\n\n${table('function', bySite)}\n\n${table('module', byModule)}`;
}

if (require.main === module) console.log(summariseCpuProfile(process.argv[2], Number(process.argv[3] ?? 30)));
