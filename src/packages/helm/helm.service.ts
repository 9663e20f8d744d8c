// The Helm registry's rules (Forgejo: routers/api/packages/helm): a chart uploaded as a .tgz whose Chart.yaml names
// it (uploading a version again replaces it, as Forgejo does), the owner's index.yaml kept while none of its charts
// changed, and a chart's file by name.
import type { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { PackageFileRow } from '../../db/package.repository.ts';
import { BadRequestError, NotFoundError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { type IndexDocument, IndexDocumentCache, indexDocument } from '../core/index-document.ts';
import { PackagePublisher } from '../core/publish.ts';
import { SpooledUpload } from '../core/spooled-upload.ts';
import { readFromTarGz } from '../core/tar-gz-archive.ts';
import { chartFileName, parseChartYaml } from './chart-yaml.ts';
import { chartVersions, indexYaml } from './helm-index.ts';
import { sizeBound } from '../core/size-bound.ts';

export const HELM = 'helm';

const MAX_CHART_YAML_BYTES = 1024 * 1024;
/** What helm itself inflates a chart to at most (its MaxDecompressedChartSize). */
const MAX_SCANNED_BYTES = 100 * 1024 * 1024;

export class HelmService {
  private readonly publisher: PackagePublisher;
  private readonly indexes = new IndexDocumentCache();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly quota: QuotaService,
    hookEvents: HookEventsService,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  /** Stores an uploaded chart as its version's only file; an invalid or hostile archive answers 400. */
  async upload(doer: User, owner: User, body: Readable): Promise<void> {
    await this.quota.assertWithin(owner, 'size:assets:packages:all');
    const limit = this.deps.settings.packages.LIMIT_SIZE_HELM;
    const maxBytes = sizeBound(limit);
    const upload = await SpooledUpload.receive(body, maxBytes);
    try {
      const chartYaml = await readFromTarGz(upload.path, {
        // Chart.yaml of the chart's own folder, not of a chart it vendors under charts/.
        wanted: (name) => /^[^/]+\/Chart\.yaml$/.test(name),
        what: 'Chart.yaml',
        maxBytes: MAX_CHART_YAML_BYTES,
        maxScannedBytes: MAX_SCANNED_BYTES,
      });
      if (!chartYaml) throw new BadRequestError('the chart has no Chart.yaml');
      const chart = parseChartYaml(chartYaml.toString('utf8'));
      await this.publisher.publish(
        {
          owner,
          doer,
          key: { ownerId: owner.id, type: HELM, name: chart.name, version: chart.version },
          fileName: chartFileName(chart),
          isLead: true,
          metadataJson: JSON.stringify(chart),
          replaceExisting: true,
          replaceMetadata: true,
          maxBytes,
        },
        upload.open(),
      );
    } finally {
      await upload.dispose();
    }
  }

  /** The owner's index.yaml as the registry at `base` serves it. */
  async index(owner: User, base: string, contextPath: string): Promise<IndexDocument> {
    const key = { ownerId: owner.id, type: HELM };
    const revision = await this.deps.repos.ownerPackageIndex.revision(owner.id, HELM);
    return this.indexes.get(`${owner.id}\n${base}`, revision, async () => {
      const files = await this.deps.repos.packageIndex.listFilesOfType(key);
      return indexDocument(indexYaml(base, contextPath, chartVersions(files)));
    });
  }

  /** A chart file by its name, counted as a download. */
  async file(owner: User, fileName: string): Promise<PackageFileRow> {
    const files = await this.deps.repos.packages.filesNamed({ ownerId: owner.id, type: HELM }, null, fileName);
    if (files.length !== 1) throw new NotFoundError('chart does not exist');
    this.deps.repos.packages.countDownload(files[0].versionId);
    return files[0];
  }
}
