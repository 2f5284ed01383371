/**
 * Column definitions of the `_cat` APIs (names, aliases, default visibility and alignment as in
 * Elasticsearch 6.8). Spec strings: `name|alias1,alias2|flags|description`, flags: `r` right
 * aligned, `h` hidden unless asked for with `h=`.
 */
import type { Column } from './table.js';

export function columns(specs: string[]): Column[] {
  return specs.map((s) => {
    const [name, alias, flags, desc] = s.split('|');
    const c: Column = { name: name! };
    if (alias) c.alias = alias;
    if (flags?.includes('r')) c.right = true;
    if (flags?.includes('h')) c.default = false;
    c.desc = desc || name!.replace(/[._]/g, ' ');
    return c;
  });
}

const TS = [
  'epoch|t,time||seconds since the epoch',
  'timestamp|ts,hms,hhmmss||wall clock time HH:MM:SS',
];

export const HEALTH_COLUMNS = columns([
  ...TS,
  'cluster|cl||cluster name',
  'status|st||health status',
  'node.total|nt,nodeTotal|r|nodes in the cluster',
  'node.data|nd,nodeData|r|data nodes',
  'shards|t,sh,shards.total,shardsTotal|r|active shards',
  'pri|p,shards.primary,shardsPrimary|r|active primary shards',
  'relo|r,shards.relocating,shardsRelocating|r|relocating shards',
  'init|i,shards.initializing,shardsInitializing|r|initializing shards',
  'unassign|u,shards.unassigned,shardsUnassigned|r|unassigned shards',
  'pending_tasks|pt,pendingTasks|r|pending cluster tasks',
  'max_task_wait_time|mtwt,maxTaskWaitTime|r|longest wait of a pending task',
  'active_shards_percent|asp,activeShardsPercent|r|share of active shards',
]);

export const COUNT_COLUMNS = columns([...TS, 'count|dc,docs.count,docsCount||number of documents']);

const STAT_NAMES = [
  'completion.size|cs,completionSize',
  'fielddata.memory_size|fm,fielddataMemory',
  'fielddata.evictions|fe,fielddataEvictions',
  'query_cache.memory_size|qcm,queryCacheMemory',
  'query_cache.evictions|qce,queryCacheEvictions',
  'request_cache.memory_size|rcm,requestCacheMemory',
  'request_cache.evictions|rce,requestCacheEvictions',
  'request_cache.hit_count|rchc,requestCacheHitCount',
  'request_cache.miss_count|rcmc,requestCacheMissCount',
  'flush.total|ft,flushTotal',
  'flush.total_time|ftt,flushTotalTime',
  'get.current|gc,getCurrent',
  'get.time|gti,getTime',
  'get.total|gto,getTotal',
  'get.exists_time|geti,getExistsTime',
  'get.exists_total|geto,getExistsTotal',
  'get.missing_time|gmti,getMissingTime',
  'get.missing_total|gmto,getMissingTotal',
  'indexing.delete_current|idc,indexingDeleteCurrent',
  'indexing.delete_time|idti,indexingDeleteTime',
  'indexing.delete_total|idto,indexingDeleteTotal',
  'indexing.index_current|iic,indexingIndexCurrent',
  'indexing.index_time|iiti,indexingIndexTime',
  'indexing.index_total|iito,indexingIndexTotal',
  'indexing.index_failed|iif,indexingIndexFailed',
  'merges.current|mc,mergesCurrent',
  'merges.current_docs|mcd,mergesCurrentDocs',
  'merges.current_size|mcs,mergesCurrentSize',
  'merges.total|mt,mergesTotal',
  'merges.total_docs|mtd,mergesTotalDocs',
  'merges.total_size|mts,mergesTotalSize',
  'merges.total_time|mtt,mergesTotalTime',
  'refresh.total|rto,refreshTotal',
  'refresh.time|rti,refreshTime',
  'refresh.listeners|rli,refreshListeners',
  'search.fetch_current|sfc,searchFetchCurrent',
  'search.fetch_time|sfti,searchFetchTime',
  'search.fetch_total|sfto,searchFetchTotal',
  'search.open_contexts|so,searchOpenContexts',
  'search.query_current|sqc,searchQueryCurrent',
  'search.query_time|sqti,searchQueryTime',
  'search.query_total|sqto,searchQueryTotal',
  'search.scroll_current|scc,searchScrollCurrent',
  'search.scroll_time|scti,searchScrollTime',
  'search.scroll_total|scto,searchScrollTotal',
  'segments.count|sc,segmentsCount',
  'segments.memory|sm,segmentsMemory',
  'segments.index_writer_memory|siwm,segmentsIndexWriterMemory',
  'segments.version_map_memory|svmm,segmentsVersionMapMemory',
  'segments.fixed_bitset_memory|sfbm,fixedBitsetMemory',
  'warmer.current|wc,warmerCurrent',
  'warmer.total|wto,warmerTotal',
  'warmer.total_time|wtt,warmerTotalTime',
  'suggest.current|suc,suggestCurrent',
  'suggest.time|suti,suggestTime',
  'suggest.total|suto,suggestTotal',
  'memory.total|tm,memoryTotal',
];

export const STAT_COLUMN_NAMES = STAT_NAMES.map((s) => s.split('|')[0]!);

export const INDICES_COLUMNS = columns([
  'health|h||current health status',
  'status|s||open/close status',
  'index|i,idx||index name',
  'uuid|id,uuid||index uuid',
  'pri|p,shards.primary,shardsPrimary|r|number of primary shards',
  'rep|r,shards.replica,shardsReplica|r|number of replica shards',
  'docs.count|dc,docsCount|r|available docs',
  'docs.deleted|dd,docsDeleted|r|deleted docs',
  'creation.date|cd|h|index creation date (millisecond value)',
  'creation.date.string|cds|h|index creation date (as string)',
  'store.size|ss,storeSize|r|store size of primaries & replicas',
  'pri.store.size||r|store size of primaries',
  ...STAT_NAMES.flatMap((s) => {
    const [n, a] = s.split('|');
    return [`${n}|${a}|rh|`, `pri.${n}||rh|`];
  }),
  'search.throttled|sth|h|indicates if the index is search throttled',
]);

const SHARD_STATS = STAT_NAMES.filter(
  (s) => !s.startsWith('request_cache') && !s.startsWith('memory') && !s.startsWith('suggest'),
);

export const SHARDS_COLUMNS = columns([
  'index|i,idx||index name',
  'shard|s,sh||shard name',
  'prirep|p,pr,primaryOrReplica||primary or replica',
  'state|st||shard state',
  'docs|d,dc|r|number of docs in shard',
  'store|sto|r|store size of shard (how much disk it uses)',
  'ip|||ip of node where it lives',
  'id||h|unique id of node where it lives',
  'node|n||name of node where it lives',
  'sync_id|sync_id|h|sync id',
  'unassigned.reason|ur|h|reason shard is unassigned',
  'unassigned.at|ua|h|time shard became unassigned (UTC)',
  'unassigned.for|uf|rh|time has been unassigned',
  'unassigned.details|ud|h|additional details as to why the shard became unassigned',
  'recoverysource.type|rs|h|recovery source type',
  // ES RestShardsAction: no request cache, suggest or memory columns; the sequence numbers come
  // between the segments and the warmers
  ...SHARD_STATS.filter((s) => !s.startsWith('warmer.')).map((s) => `${s}|rh|`),
  'seq_no.max|sqm,maxSeqNo|rh|max sequence number',
  'seq_no.local_checkpoint|sql,localCheckpoint|rh|local checkpoint',
  'seq_no.global_checkpoint|sqg,globalCheckpoint|rh|global checkpoint',
  ...SHARD_STATS.filter((s) => s.startsWith('warmer.')).map((s) => `${s}|rh|`),
]);

export const NODES_COLUMNS = columns([
  'id|id,nodeId|h|unique node id',
  'pid|p|h|process id',
  'ip|i||ip address',
  'port|po|h|bound transport port',
  'http_address|http|h|bound http address',
  'version|v|h|es version',
  'flavor|f|h|es distribution flavor',
  'type|t|h|es distribution type',
  'build|b|h|es build hash',
  'jdk|j|h|jdk version',
  'disk.total|dt,diskTotal|rh|total disk space',
  'disk.used|du,diskUsed|rh|used disk space',
  'disk.avail|d,da,disk,diskAvail|rh|available disk space',
  'disk.used_percent|dup,diskUsedPercent|rh|used disk space percentage',
  'heap.current|hc,heapCurrent|rh|used heap',
  'heap.percent|hp,heapPercent|r|used heap ratio',
  'heap.max|hm,heapMax|rh|max configured heap',
  'ram.current|rc,ramCurrent|rh|used machine memory',
  'ram.percent|rp,ramPercent|r|used machine memory ratio',
  'ram.max|rm,ramMax|rh|total machine memory',
  'file_desc.current|fdc,fileDescriptorCurrent|rh|used file descriptors',
  'file_desc.percent|fdp,fileDescriptorPercent|rh|used file descriptor ratio',
  'file_desc.max|fdm,fileDescriptorMax|rh|max file descriptors',
  'cpu|cpu|r|recent cpu usage',
  'load_1m|l|r|1m load avg',
  'load_5m|l|r|5m load avg',
  'load_15m|l|r|15m load avg',
  'uptime|u|rh|node uptime',
  'node.role|r,role,nodeRole||m:master eligible node, d:data node, i:ingest node, -:coordinating node only',
  'master|m||*:current master',
  'name|n||node name',
  ...STAT_NAMES.filter(
    (s) =>
      !s.startsWith('memory') &&
      !s.includes('request_cache.hit') &&
      !s.includes('request_cache.miss'),
  ).map((s) => `${s}|rh|`),
  'script.compilations|scrcc,scriptCompilations|rh|script compilations',
  'script.cache_evictions|scrce,scriptCacheEvictions|rh|script cache evictions',
]);

export const ALIASES_COLUMNS = columns([
  'alias|a||alias name',
  'index|i,idx||index alias points to',
  'filter|f,fi||filter',
  'routing.index|ri,routingIndex||index routing',
  'routing.search|rs,routingSearch||search routing',
]);

export const TEMPLATES_COLUMNS = columns([
  'name|n||template name',
  'index_patterns|t||template index patterns',
  'order|o||template application order number',
  'version|v||version',
]);

export const ALLOCATION_COLUMNS = columns([
  'shards|s|r|number of shards on node',
  'disk.indices|di,diskIndices|r|disk used by ES indices',
  'disk.used|du,diskUsed|r|disk used (total, not just ES)',
  'disk.avail|da,diskAvail|r|disk available',
  'disk.total|dt,diskTotal|r|total capacity of all volumes',
  'disk.percent|dp,diskPercent|r|percent disk used',
  'host|h||host of node',
  'ip|||ip of node',
  'node|n||name of node',
]);

export const NODEATTRS_COLUMNS = columns([
  'node|name||node name',
  'id|id,nodeId|h|unique node id',
  'pid|p|h|process id',
  'host|h||host name',
  'ip|i||ip address',
  'port|po|h|bound transport port',
  'attr|attr.name||attribute description',
  'value|attr.value||attribute value',
]);

export const PLUGINS_COLUMNS = columns([
  'id||h|unique node id',
  'name|n||node name',
  'component|c||component',
  'version|v||component version',
  'description|d|h|plugin details',
]);

export function tasksColumns(detailed: boolean): Column[] {
  return columns([
    'id||h|id of the task with the node',
    'action|ac||task action',
    'task_id|ti||unique task id',
    'parent_task_id|pti||parent task id',
    'type|ty||task type',
    'start_time|start||start time in ms',
    'timestamp|ts,hms,hhmmss||start time in HH:MM:SS',
    'running_time_ns|time|h|running time ns',
    'running_time|time||running time',
    'node_id|ni|h|unique node id',
    'ip|i||ip address',
    'port|po|h|bound transport port',
    'node|n||node name',
    'version|v|h|es version',
    'x_opaque_id|x|h|X-Opaque-ID header',
    ...(detailed ? ['description|desc||task action'] : []),
  ]);
}

export const THREAD_POOL_COLUMNS = columns([
  'node_name|nn||node name',
  'node_id|id|h|persistent node id',
  'ephemeral_node_id|eid|h|ephemeral node id',
  'pid|p|h|process id',
  'host|h|h|host name',
  'ip|i|h|ip address',
  'port|po|h|bound transport port',
  'name|n||thread pool name',
  'type|t|h|thread pool type',
  'active|a|r|number of active threads',
  'size|s|rh|number of threads',
  'queue|q|r|number of tasks currently in queue',
  'queue_size|qs|rh|maximum number of tasks permitted in queue',
  'rejected|r|r|number of rejected tasks',
  'largest|l|rh|highest number of seen active threads',
  'completed|c|rh|number of completed tasks',
  'min|mi|rh|minimum number of threads',
  'max|ma|rh|maximum number of threads',
  'keep_alive|ka|rh|thread keep alive time',
]);

export const FIELDDATA_COLUMNS = columns([
  'id|||node id',
  'host|h||host name',
  'ip|||ip address',
  'node|n||node name',
  'field|f||field name',
  'size|||field data usage',
]);

export const SEGMENTS_COLUMNS = columns([
  'index|i,idx||index name',
  'shard|s,sh||shard name',
  'prirep|p,pr,primaryOrReplica||primary or replica',
  'ip|||ip of node where it lives',
  'id||h|unique id of node where it lives',
  'segment|seg||segment name',
  'generation|g,gen|r|segment generation',
  'docs.count|dc,docsCount|r|number of docs in segment',
  'docs.deleted|dd,docsDeleted|r|number of deleted docs in segment',
  'size|si|r|segment size in bytes',
  'size.memory|sm|r|segment memory in bytes',
  'committed|ic,isCommitted|r|is segment committed',
  'searchable|is,isSearchable|r|is segment searched',
  'version|v,ver|r|version',
  'compound|ico,isCompound|r|is segment compound',
]);

export const REPOSITORIES_COLUMNS = columns([
  'id|repoId||unique repository id',
  'type|t||repository type',
]);

/** `_cat/snapshots` columns (ES RestSnapshotAction). */
export const SNAPSHOTS_COLUMNS = columns([
  'id|id,snapshot||unique snapshot',
  'status|s,status||snapshot name',
  'start_epoch|ste,startEpoch||start time in seconds since 1970-01-01 00:00:00',
  'start_time|sti,startTime||start time in HH:MM:SS',
  'end_epoch|ete,endEpoch||end time in seconds since 1970-01-01 00:00:00',
  'end_time|eti,endTime||end time in HH:MM:SS',
  'duration|dur,duration|r|duration',
  'indices|i,indices|r|number of indices',
  'successful_shards|ss,successful_shards|r|number of successful shards',
  'failed_shards|fs,failed_shards|r|number of failed shards',
  'total_shards|ts,total_shards|r|number of total shards',
  'reason|r,reason|h|reason for failures',
]);

/** `_cat/recovery` columns (ES RestRecoveryAction). */
export const RECOVERY_COLUMNS = columns([
  'index|i,idx||index name',
  'shard|s,sh||shard name',
  'start_time|start|h|recovery start time',
  'start_time_millis|start_millis|h|recovery start time in epoch milliseconds',
  'stop_time|stop|h|recovery stop time',
  'stop_time_millis|stop_millis|h|recovery stop time in epoch milliseconds',
  'time|t,ti||recovery time',
  'type|ty||recovery type',
  'stage|st||recovery stage',
  'source_host|shost||source host',
  'source_node|snode||source node name',
  'target_host|thost||target host',
  'target_node|tnode||target node name',
  'repository|rep||repository',
  'snapshot|snap||snapshot',
  'files|f||number of files to recover',
  'files_recovered|fr||files recovered',
  'files_percent|fp||percent of files recovered',
  'files_total|tf||total number of files',
  'bytes|b||number of bytes to recover',
  'bytes_recovered|br||bytes recovered',
  'bytes_percent|bp||percent of bytes recovered',
  'bytes_total|tb||total number of bytes',
  'translog_ops|to||number of translog ops to recover',
  'translog_ops_recovered|tor||translog ops recovered',
  'translog_ops_percent|top||percent of translog ops recovered',
]);
