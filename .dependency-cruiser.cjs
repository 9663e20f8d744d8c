// The layer rules of docs/ARCHITECTURE.md, checked in CI (`npm run lint`): who may import whom inside src/.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import circles make load order matter.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'domain/ holds the rules of the product: it imports nothing of the project but domain/ and lib/.',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/(domain|lib)/' },
    },
    {
      name: 'lib-is-generic',
      severity: 'error',
      comment: 'lib/ holds generic helpers: nothing of the product.',
      from: { path: '^src/lib/' },
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'services-see-no-http',
      severity: 'error',
      comment: 'Services never see requests, responses or API shapes.',
      from: { path: '^src/services/' },
      to: { path: ['^src/(api|http|convert)/', '^node_modules/express/'] },
    },
    {
      name: 'services-see-no-database-client',
      severity: 'error',
      comment:
        'Services get repositories: no database client, Prisma client or query types (entities come from db/entities.ts).',
      // src/db/entities.ts (model row types only) is allowed: it is not in the list below.
      from: { path: '^src/services/' },
      to: {
        path: [
          '^src/infra/database/',
          '^src/db/prisma\\.ts$',
          '^generated/prisma/',
          '^node_modules/(@prisma|pg|better-sqlite3)/',
        ],
      },
    },
    {
      name: 'services-see-the-queue-interface-only',
      severity: 'error',
      comment: 'The job queue engines are chosen in one place; services see the JobQueue interface.',
      from: { path: '^src/services/' },
      to: { path: '^src/infra/queue/', pathNot: '^src/infra/queue/job-queue\\.ts$' },
    },
    {
      name: 'queue-engines-chosen-once',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/infra/queue/(create-job-queue|database-job-queue|redis-job-queue)\\.ts$' },
      to: { path: '^src/infra/queue/(database|redis)-job-queue\\.ts$' },
    },
    {
      name: 'api-reaches-data-through-services',
      severity: 'error',
      comment: 'The HTTP layers call services; repositories and the database client are behind them.',
      from: { path: '^src/(api|http)/' },
      // db/entities.ts holds the model row types only (no client, no query types): the API may name them.
      to: { path: ['^src/db/(?!entities\\.ts$)', '^src/infra/database/(?!errors\\.ts$)'] },
    },
    {
      name: 'repositories-below-services',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/(services|api|http|convert)/' },
    },
    {
      name: 'converters-below-services',
      severity: 'error',
      comment: 'Converters shape API JSON from rows and domain values; they call nothing above them.',
      from: { path: '^src/convert/' },
      to: { path: '^src/(services|api|http)/' },
    },
    {
      name: 'webhook-wire-code-below-services',
      severity: 'error',
      from: { path: '^src/webhook/' },
      to: { path: '^src/(services|api|http|convert)/' },
    },
    {
      name: 'infra-below-services',
      severity: 'error',
      comment: 'infra/ talks to the outside world for the layers above it; it calls none of them.',
      from: { path: '^src/infra/' },
      to: { path: '^src/(services|api|http|convert)/' },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '^generated/'] },
    exclude: { path: '^(dist|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.cjs', '.json'] },
  },
};
