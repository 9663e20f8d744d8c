// Where a database lives; the provider picks the generated client, the adapter and the migrations directory.
export type DatabaseTarget = { provider: 'sqlite'; file: string } | { provider: 'postgresql'; url: string };
