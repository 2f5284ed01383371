/**
 * Coordination on etcd (`../shared/design/cluster.md` §1–2): the node's membership is a key bound
 * to its lease, the master is etcd's election (the candidate key under `master/` with the lowest
 * create revision, read by every node from the state it watches), and the cluster state is the
 * keys under `<prefix>/<cluster.name>/`, read at one revision and then followed by a watch applied
 * in revision order. Nothing here is consensus: every master write is fenced in etcd (etcd-txn.ts),
 * so an "elected" belief that has gone stale can never commit (etcd3 npm #158, #176).
 *
 * Lease loss (keep-alive refused, or not confirmed for a whole TTL): `onNoMaster` fires, the node
 * stops campaigning, and rejoins with a new lease (new node key, new candidacy) once etcd answers.
 * A broken or compacted watch re-reads everything at a new revision and watches on from there.
 */
import { randomBase64Uuid } from '../../common/ids.js';
import { parseTimeValue } from '../../common/units.js';
import { EtcdLeaseInvalidError, type Etcd3, type IKeyValue, type Lease, type Watcher } from 'etcd3';
import type { ClusterState, DiscoveryNode, ShardTerms } from '../state.js';
import {
  applyEvents,
  decodeState,
  emptyState,
  encodeClusterMeta,
  encodeNode,
  UNKNOWN_CLUSTER_UUID,
  type Kv,
  type KvEvent,
  type StateView,
} from './codec.js';
import type { Coordinator } from './coordinator.js';
import { masterNotDiscovered, nodeIdTaken, notMaster } from './errors.js';
import { etcdClient } from './etcd-client.js';
import { fencedMasterTxn, fencedTermTxn, toRequestOps, type MasterFence } from './etcd-txn.js';
import {
  DEFAULT_PREFIX,
  keyForCampaign,
  keyForClusterMeta,
  keyForNode,
  keyForTerms,
  keySpace,
  type KeySpace,
} from './keys.js';
import { listeners, waitForVersion } from './listeners.js';
import { toKvOps } from './ops.js';

export interface EtcdCoordinatorSettings {
  readonly endpoints: readonly string[];
  readonly clusterName: string;
  /** Whole seconds, at least 1 (etcd's lease granularity). */
  readonly leaseTtlSeconds: number;
  readonly prefix: string;
}

/**
 * The coordination settings of a node (`discovery.etcd.endpoints` comma list of URLs,
 * `cluster.name`, `discovery.etcd.lease_ttl` default 5s, `discovery.etcd.prefix` default
 * `/quarry`); null when no endpoints are set (a lone node).
 */
export function etcdSettings(
  flat: Readonly<Record<string, unknown>>,
): EtcdCoordinatorSettings | null {
  const raw = flat['discovery.etcd.endpoints'];
  const list = Array.isArray(raw) ? raw.map(String) : raw == null ? [] : String(raw).split(',');
  const endpoints = list.map((s) => s.trim()).filter((s) => s !== '');
  if (endpoints.length === 0) return null;
  const ttlMs = parseTimeValue(
    (flat['discovery.etcd.lease_ttl'] as string | number | undefined) ?? '5s',
    'discovery.etcd.lease_ttl',
  );
  return {
    endpoints,
    clusterName: String(flat['cluster.name'] ?? 'elasticsearch'),
    leaseTtlSeconds: Math.max(1, Math.round(ttlMs / 1000)),
    prefix: String(flat['discovery.etcd.prefix'] ?? DEFAULT_PREFIX),
  };
}

/** The node's membership: its lease and its candidacy. */
export interface Membership {
  readonly leaseId: string;
  readonly campaignKey: string;
  readonly campaignRevision: number;
}

export interface EtcdCoordinator extends Coordinator {
  /** The current membership, null while the node holds none (before start, after a loss). */
  membership(): Membership | null;
  /**
   * Restarts the state watch at `revision`, as a reconnect behind the others would; revisions
   * already applied are skipped, and a compacted one makes the node re-read everything. For
   * tests of watch recovery.
   */
  rewatchFrom(revision: number): Promise<void>;
  /** Stops the state watch until `rewatchFrom` (the node falls behind). For tests. */
  pauseWatch(): Promise<void>;
}

export interface EtcdCoordinatorOptions {
  readonly log?: (level: 'info' | 'warn', message: string) => void;
  readonly onListenerError?: (e: unknown) => void;
}

interface Session extends Membership {
  readonly lease: Lease;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.());

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e) => (clearTimeout(t), reject(e)),
    );
  });
}

const toKv = (kv: IKeyValue): Kv => ({
  key: kv.key.toString(),
  value: kv.value.toString(),
  createRevision: Number(kv.create_revision),
  modRevision: Number(kv.mod_revision),
});

export function etcdCoordinator(
  settings: EtcdCoordinatorSettings,
  opts: EtcdCoordinatorOptions = {},
): EtcdCoordinator {
  const ks: KeySpace = keySpace(settings.clusterName, settings.prefix);
  const ttlMs = settings.leaseTtlSeconds * 1000;
  const callMs = Math.max(1000, Math.min(3000, ttlMs));
  const log = opts.log ?? (() => undefined);
  const onError = opts.onListenerError ?? ((e) => log('warn', `listener failed: ${String(e)}`));
  const stateListeners = listeners<[ClusterState, ClusterState]>(onError);
  const noMaster = listeners<[]>(onError);
  const rejoined = listeners<[]>(onError);

  let client: Etcd3 | null = null;
  let localNode: DiscoveryNode | null = null;
  let view: StateView | null = null;
  let session: Session | null = null;
  /** Leases this node held before: a node key still bound to one of them is ours, not a rival's. */
  const pastLeases = new Set<string>();
  let watcher: Watcher | null = null;
  let watchGeneration = 0;
  let resyncing: Promise<void> | null = null;
  let rejoining = false;
  let bootstrapping = false;
  let stopped = false;

  const etcd = (): Etcd3 => {
    if (!client) throw masterNotDiscovered();
    return client;
  };

  /** Before the node joined: a state with nothing in it (listeners may be set up meanwhile). */
  const notJoined = emptyState(settings.clusterName);

  /** Installs a newer view and tells the listeners (the first one comes after the empty state). */
  function install(next: StateView) {
    const prev = view;
    view = next;
    if (prev?.state !== next.state) stateListeners.emit(prev?.state ?? notJoined, next.state);
    maybeBootstrap();
  }

  // ---- membership ----

  async function join(node: DiscoveryNode, waitForRivalMs: number): Promise<Session> {
    const c = etcd();
    const lease = c.lease(settings.leaseTtlSeconds, { autoKeepAlive: false });
    lease.on('lost', () => undefined); // handled by the keep-alive loop
    try {
      const leaseId = await withTimeout(lease.grant(), callMs, 'lease grant');
      await register(c, node, leaseId, waitForRivalMs);
      const campaignKey = keyForCampaign(ks, leaseId);
      const res = await c
        .if(campaignKey, 'Create', '==', 0)
        .then(...toRequestOps([{ type: 'put', key: campaignKey, value: node.id }], leaseId))
        .else({ request_range: { key: Buffer.from(campaignKey) } })
        .commit();
      const campaignRevision = res.succeeded
        ? Number(res.header.revision)
        : Number(res.responses[0]!.response_range.kvs[0]!.create_revision);
      return { lease, leaseId, campaignKey, campaignRevision };
    } catch (e) {
      await withTimeout(lease.revoke(), callMs, 'lease revoke').catch(() => undefined);
      throw e;
    }
  }

  /** Puts `nodes/<id>` with the lease unless another live lease holds it. */
  async function register(c: Etcd3, node: DiscoveryNode, leaseId: string, waitMs: number) {
    const key = keyForNode(ks, node.id);
    const until = Date.now() + waitMs;
    for (;;) {
      const res = await c
        .if(key, 'Create', '==', 0)
        .then(...toRequestOps([{ type: 'put', key, value: encodeNode(node) }], leaseId))
        .else({ request_range: { key: Buffer.from(key) } })
        .commit();
      if (res.succeeded) return;
      const holder = res.responses[0]?.response_range.kvs[0]?.lease ?? '0';
      if (pastLeases.has(holder)) {
        // Our own registration from before a loss: end it and take the key.
        await c.leaseClient.leaseRevoke({ ID: holder }).catch(() => undefined);
        pastLeases.delete(holder);
        continue;
      }
      // A node killed a moment ago still holds its key until its lease runs out.
      if (Date.now() >= until) throw nodeIdTaken(node.id);
      await sleep(200);
    }
  }

  /** When the last confirmed keep-alive was sent: etcd's countdown started no earlier. */
  let lastOk = 0;
  async function keepAlive(sess: Session) {
    lastOk = Date.now();
    let failed = false;
    while (session === sess && !stopped) {
      // Every third of a TTL, and soon again after a failure (another member may answer).
      await sleep(failed ? Math.min(250, ttlMs / 3) : ttlMs / 3);
      if (session !== sess || stopped) return;
      const sent = Date.now();
      try {
        await withTimeout(sess.lease.keepaliveOnce(), ttlMs / 3, 'keep-alive');
        lastOk = sent;
        failed = false;
      } catch (e) {
        if (e instanceof EtcdLeaseInvalidError) return onLost(sess, 'lease expired or revoked');
        failed = true;
      }
      // Past a whole TTL without a confirmed keep-alive, etcd may have expired the lease.
      if (Date.now() - lastOk >= ttlMs) return onLost(sess, 'keep-alive unconfirmed for a TTL');
    }
  }

  function onLost(sess: Session, why: string) {
    if (session !== sess || stopped) return;
    log('warn', `lost the etcd lease [${sess.leaseId}]: ${why}; blocking writes until rejoined`);
    session = null;
    pastLeases.add(sess.leaseId);
    sess.lease.release();
    noMaster.emit();
    void rejoin();
  }

  async function rejoin() {
    if (rejoining) return;
    rejoining = true;
    try {
      for (let delay = 100; !stopped; delay = Math.min(delay * 2, 1000)) {
        try {
          // A lease etcd still holds would keep our old node key and candidacy alive: end it.
          for (const id of pastLeases)
            await withTimeout(etcd().leaseClient.leaseRevoke({ ID: id }), callMs, 'revoke')
              .then(() => pastLeases.delete(id))
              .catch((e) => {
                if (e instanceof EtcdLeaseInvalidError) pastLeases.delete(id);
              });
          const sess = await join(localNode!, ttlMs + 1000);
          if (stopped) {
            await sess.lease.revoke().catch(() => undefined);
            return;
          }
          session = sess;
          void keepAlive(sess);
          log('info', `rejoined the cluster with lease [${sess.leaseId}]`);
          await resync();
          // the new lease was lost while the state was read: onLost found this loop running and
          // left the rejoin to it, so go round again rather than report a membership we lost
          if (session !== sess) {
            log('warn', `lost the new lease [${sess.leaseId}] while rejoining; trying again`);
            await sleep(delay);
            continue;
          }
          rejoined.emit();
          return;
        } catch (e) {
          log('warn', `rejoin failed: ${String(e)}`);
          await sleep(delay);
        }
      }
    } finally {
      rejoining = false;
    }
  }

  // ---- state ----

  /** Reads everything at one revision, installs it, and watches on from the next revision. */
  function resync(): Promise<void> {
    resyncing ??= (async () => {
      try {
        for (let delay = 100; !stopped; delay = Math.min(delay * 2, 1000)) {
          try {
            await cancelWatch();
            const c = etcd();
            const res = await withTimeout(
              c.getAll().prefix(ks.root).exec(),
              callMs,
              'cluster state read',
            );
            const revision = Number(res.header.revision);
            const next = decodeState(
              res.kvs.map(toKv),
              revision,
              settings.clusterName,
              settings.prefix,
            );
            if (!view || revision > view.state.version) install(next);
            watch(c, view!.state.version + 1);
            return;
          } catch (e) {
            log('warn', `cluster state read failed: ${String(e)}`);
            await sleep(delay);
          }
        }
      } finally {
        resyncing = null;
      }
    })();
    return resyncing;
  }

  function watch(c: Etcd3, fromRevision: number) {
    const generation = ++watchGeneration;
    const w = c.watch().prefix(ks.root).startRevision(String(fromRevision)).watcher();
    watcher = w;
    const broken = (why: string) => {
      if (generation !== watchGeneration || stopped) return;
      log('warn', `cluster state watch broken (${why}); re-reading`);
      watchGeneration++;
      void resync();
    };
    w.on('data', (res) => {
      if (generation !== watchGeneration || !view) return;
      // One state per revision, in revision order, so every node sees the same versions.
      let batch: KvEvent[] = [];
      const flush = () => {
        if (batch.length && batch[0]!.modRevision > view!.state.version)
          install(applyEvents(view!, batch));
        batch = [];
      };
      for (const ev of res.events) {
        const kv = toKv(ev.kv);
        const event: KvEvent = {
          type: ev.type === 'Put' ? 'put' : 'delete',
          key: kv.key,
          value: ev.type === 'Put' ? kv.value : '',
          createRevision: kv.createRevision,
          modRevision: kv.modRevision,
        };
        if (batch.length && batch[0]!.modRevision !== event.modRevision) flush();
        batch.push(event);
      }
      flush();
    });
    w.on('disconnected', (e) => broken(`disconnected: ${String(e)}`));
    w.on('error', (e) => {
      // etcd ended this watch itself (compaction): cancelling it again would wait for nothing.
      if (watcher === w) watcher = null;
      broken(String(e));
    });
  }

  async function cancelWatch() {
    const w = watcher;
    watcher = null;
    watchGeneration++;
    if (w) await withTimeout(w.cancel(), callMs, 'watch cancel').catch(() => undefined);
  }

  // ---- master ----

  const fence = (): MasterFence | null => {
    const sess = session;
    const leader = view?.leader;
    if (!sess || !leader || stopped) return null;
    return leader.key === sess.campaignKey && leader.createRevision === sess.campaignRevision
      ? { campaignKey: sess.campaignKey, createRevision: sess.campaignRevision }
      : null;
  };

  /** The first master of a new cluster gives it its uuid (only if none exists, and fenced). */
  function maybeBootstrap() {
    const f = fence();
    if (!f || bootstrapping || view?.state.metadata.clusterUuid !== UNKNOWN_CLUSTER_UUID) return;
    bootstrapping = true;
    const key = keyForClusterMeta(ks);
    fencedMasterTxn(
      etcd(),
      f,
      [{ type: 'put', key, value: encodeClusterMeta(randomBase64Uuid()) }],
      key,
    )
      // Written once is enough (the watch brings it); a failed try may be retried by the next state.
      .catch((e) => {
        log('info', `cluster uuid not written: ${String(e)}`);
        bootstrapping = false;
      });
  }

  async function stop() {
    stopped = true;
    const sess = session;
    session = null;
    await cancelWatch();
    const c = client;
    client = null;
    if (c && sess) {
      // Resign, then end the lease so the node key goes at once rather than after a TTL.
      await withTimeout(c.delete().key(sess.campaignKey).exec(), callMs, 'resign').catch(
        () => undefined,
      );
      await withTimeout(sess.lease.revoke(), callMs, 'lease revoke').catch(() => undefined);
    }
    c?.close();
  }

  function current(): ClusterState {
    if (!view) {
      if (!client && !stopped) return notJoined;
      throw masterNotDiscovered();
    }
    return view.state;
  }

  return {
    async start(node) {
      if (client || stopped) throw new Error('an etcd coordinator starts once');
      localNode = node;
      client = etcdClient(settings.endpoints, callMs);
      try {
        const sess = await join(node, ttlMs + 1000);
        session = sess;
        void keepAlive(sess);
        await resync();
        if (!view) throw masterNotDiscovered();
        return view.state;
      } catch (e) {
        await stop();
        throw e;
      }
    },

    stop,
    state: current,

    isMaster: () => fence() !== null,

    // a tenth of the TTL as margin for the two clocks' rates
    leaseFresh: () => session !== null && Date.now() - lastOk < ttlMs * 0.9,

    membership: () =>
      session
        ? {
            leaseId: session.leaseId,
            campaignKey: session.campaignKey,
            campaignRevision: session.campaignRevision,
          }
        : null,

    async masterTxn(ops, basedOn) {
      const f = fence();
      if (!f) throw session ? notMaster() : masterNotDiscovered();
      const termsKeys = ops.flatMap((op) =>
        op.type === 'putTerms' ? [keyForTerms(ks, op.indexUuid, op.shard)] : [],
      );
      const guard = basedOn !== undefined && termsKeys.length > 0 ? { keys: termsKeys, revision: basedOn } : undefined; // prettier-ignore
      return fencedMasterTxn(etcd(), f, toKvOps(ks, ops), undefined, guard);
    },

    async termTxn(indexUuid, shard, expectedTerm, next) {
      if (!session) throw masterNotDiscovered();
      return fencedTermTxn(etcd(), ks, indexUuid, shard, expectedTerm, next);
    },

    waitForVersion(version, timeoutMs) {
      return waitForVersion(current, stateListeners.add, version, timeoutMs);
    },

    pauseWatch: cancelWatch,

    async rewatchFrom(revision) {
      await cancelWatch();
      watch(etcd(), revision);
    },

    onState: stateListeners.add,
    onNoMaster: noMaster.add,
    onRejoin: rejoined.add,
  };
}
