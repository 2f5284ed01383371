/** `GET /` and `HEAD /`: node identity and version, as Elasticsearch 6.8.13 reports them. */
import type { NodeContext } from '../../node-context.js';
import { clusterUuidOf } from '../cluster-identity.js';
import { ok, type Handler } from '../rest.js';
import type { Router } from '../router.js';

export const ES_VERSION = {
  number: '6.8.13',
  build_flavor: 'default',
  build_type: 'tar',
  build_hash: 'be13c69',
  build_date: '2020-10-16T09:09:46.555371Z',
  build_snapshot: false,
  lucene_version: '7.7.3',
  minimum_wire_compatibility_version: '5.6.0',
  minimum_index_compatibility_version: '5.0.0',
};

export function registerInfoRoutes(router: Router<Handler>, node: NodeContext): void {
  router.add('GET', '/', () =>
    ok({
      name: node.nodeName,
      cluster_name: node.clusterName,
      cluster_uuid: clusterUuidOf(node),
      version: ES_VERSION,
      tagline: 'You Know, for Search',
    }),
  );
  router.add('HEAD', '/', () => ({ status: 200 }));
}
