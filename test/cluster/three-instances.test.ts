import { afterAll, beforeAll, describe } from 'vitest';
import { sharedSuite } from './shared-suite.ts';
import { type Cluster, clusterAvailable, startCluster } from './support/instances.ts';

/** Three `purerank serve` processes on one PostgreSQL database and one Redis, asked directly. */
describe.skipIf(!clusterAvailable)('three instances on one PostgreSQL and one Redis', () => {
  let cluster: Cluster | null = null;
  beforeAll(async () => {
    cluster = await startCluster({ instances: 3 });
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  sharedSuite('requests spread across the three', () => {
    if (!cluster) throw new Error('the cluster did not start');
    return { entry: cluster.bases, cluster };
  });
});
