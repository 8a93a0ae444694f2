// Placeholder replaced by the PostgreSQL (Neon driver) test path.
export interface PostgresTestDatabase {
  url: string;
  wsProxy: string;
  httpEndpoint: string;
  stop(): Promise<void>;
}

export async function startPostgresTestDatabase(): Promise<PostgresTestDatabase> {
  throw new Error('TEST_DB=postgres is not wired yet');
}
