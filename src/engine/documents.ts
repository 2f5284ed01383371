/**
 * Single-document operations on primaries: index/create, delete, update, realtime get. Each write
 * runs synchronously up to queuing its LMDB put (so ops in one bulk see each other in order);
 * callers await `durable()` before acknowledging. Results are Elasticsearch 6.8 response bodies.
 */
import { checkBlock } from './index-blocks.js';
import { resolveDateMathExpression } from './date-math-index.js';
import {
  checkOperationTerm,
  planReplicaOperation,
  type ReplicatedOperation,
} from './replicated-op.js';
import {
  illegalArgument,
  actionRequestValidation,
  documentMissing,
  EsError,
  mapperParsing,
  toEsError,
  versionConflict,
} from '../common/errors.js';
import { timeBasedId } from '../common/ids.js';
import { ensureNoSelfReferences } from '../common/self-reference.js';
import { decodeJson, hasBom } from '../common/json-bytes.js';
import { nestedDeeperThan, parseJsonText, RawJson, stringifyDeep } from '../common/json.js';
import { shardForRouting } from '../common/murmur3.js';
import { filterSource, type SourceFilter } from '../common/source-filter.js';
import { lookupField, parseDocument, parseMapping, validateTypeName } from '../mapping/index.js';
import type { ParsedDocument, RootMapping } from '../mapping/types.js';
import type { DocRecord } from '../store/doc-record.js';
import {
  indexRequestText,
  noShardForGet,
  primaryNotActive,
  updateShardUnavailable,
  type IndexService,
} from './index-service.js';
import type { IndicesService } from './indices-service.js';
import type { Shard } from './shard.js';
import {
  MATCH_ANY,
  MATCH_DELETED,
  planWrite,
  readConflict,
  type VersionType,
} from './versioning.js';
import { mergeForUpdate } from './update-merge.js';
import { clockMs } from './stats.js';
import {
  validateWrite,
  type DeleteRequest,
  type IndexRequest,
  type UpdateRequest,
  type WriteRequest,
} from './write-request.js';

/**
 * How deep a _source may nest (arrays within arrays, or objects the mapping does not map). ES
 * 6.8 sets no limit, but its recursive document parser overflows the stack on such documents, and
 * here a stored one would fail YAML and pretty answers past ~2000 levels. Jackson 2.15 made 1000
 * its default (StreamReadConstraints); its message is the one given.
 */
const MAX_SOURCE_DEPTH = 1000;
const sourceTooDeep = () =>
  mapperParsing(
    'failed to parse',
    new EsError(
      'json_parse_exception',
      `Document nesting depth (${MAX_SOURCE_DEPTH + 1}) exceeds the maximum allowed (${MAX_SOURCE_DEPTH}, from \`StreamReadConstraints.getMaxNestingDepth()\`)`,
      400,
    ),
  );

export interface WriteOutcome {
  status: number;
  body: Record<string, unknown>;
  /** Index and shard written (null for noops and failures before routing). */
  index: IndexService | null;
  shard: Shard | null;
  /**
   * What the copies need of the operation beyond its answer (absent for noops): its routing and,
   * for an index operation, the source it stored. Kept flat on the outcome, and the operation
   * itself built by replicatedOf only when a copy reads it: a node without replicas builds none.
   */
  routing?: string | null;
  source?: Buffer | null;
  /** The shard a noop answered from (it wrote nothing there, so `shard` is null). */
  noopOf?: Shard;
}

/**
 * The operation as the primary wrote it, for the copies (ES's replica request), from an outcome:
 * the answer's id, sequence number, term and version with the outcome's routing and source. Null
 * for a noop.
 */
export function replicatedOf(o: WriteOutcome): ReplicatedOperation | null {
  if (o.routing === undefined) return null;
  const b = o.body;
  const id = b._id as string;
  const seqNo = b._seq_no as number;
  const primaryTerm = b._primary_term as number;
  const version = b._version as number;
  return o.source
    ? { kind: 'index', id, seqNo, primaryTerm, version, routing: o.routing, source: o.source }
    : { kind: 'delete', id, seqNo, primaryTerm, version, routing: o.routing };
}

export interface DocumentsOptions {
  /** action.auto_create_index */
  autoCreateIndex: boolean;
  /** Runs an update script on `ctx` (set by the node; scripts live in the DSL layer). */
  runScript?: (script: unknown, ctx: Record<string, unknown>) => void;
}

/**
 * ES MapperService.validateTypeName's `_` rule, checked before a write touches anything: a type
 * named like an endpoint (`POST /logs/_rollover`, `DELETE /logs/_foo/1`) is refused with ES's
 * invalid_type_name_exception and never auto-creates an index or stores a document. ES itself
 * checks it only when the mapping merges, after the index was created.
 */
function checkWriteType(type: string): void {
  if (type.startsWith('_') && type !== '_doc') validateTypeName(type);
}

/** ES TransportBulkAction: a write to `<logs-{now/d}>` goes to the index of the day. */
function dateMathResolved<R extends { index: string }>(req: R): R {
  if (!req.index.startsWith('<')) return req;
  return { ...req, index: resolveDateMathExpression(req.index, Date.now()) };
}

type ShardsInfo = Readonly<{ total: number; successful: number; failed: number }>;

/**
 * A write's `_shards` on a node that wrote only its primary: one frozen object per replica count,
 * shared by every answer (a bulk's items would each build the same one). Never changed in place:
 * whoever reports other counts replaces it.
 */
const shardsInfos: ShardsInfo[] = [];
function shardsInfoFor(replicas: number): ShardsInfo {
  return (shardsInfos[replicas] ??= Object.freeze({
    total: 1 + replicas,
    successful: 1,
    failed: 0,
  }));
}

export class DocumentService {
  constructor(
    private readonly indices: IndicesService,
    private readonly opts: DocumentsOptions = { autoCreateIndex: true },
  ) {}

  /** The index a write goes to, creating it when allowed (ES auto-create). */
  private writeIndex(name: string): IndexService {
    let idx = this.indices.get(name);
    if (!idx) {
      const aliased = this.indices.resolveWriteAlias(name);
      if (aliased) return aliased;
      if (!this.opts.autoCreateIndex) {
        throw new EsError('index_not_found_exception', 'no such index', 404, {
          meta: {
            'resource.type': 'index_expression',
            'resource.id': name,
            index_uuid: '_na_',
            index: name,
          },
        });
      }
      idx = this.indices.createNow(name, undefined);
    }
    if (idx.closed) {
      throw new EsError('index_closed_exception', 'closed', 400, {
        meta: { index_uuid: idx.uuid, index: idx.name },
      });
    }
    checkBlock(idx.meta.settings, 'write');
    return idx;
  }

  /** A write through an alias takes the alias's index routing (ES resolveWriteIndexRouting). */
  private aliasRouted<R extends { index: string; routing: string | null }>(req: R): R {
    const routing = this.indices.resolveWriteIndexRouting(req.index, req.routing);
    return routing === req.routing ? req : { ...req, routing };
  }

  private route(idx: IndexService, id: string, routing: string | null): Shard {
    if (routing === null && idx.mapping?.routingRequired) {
      throw new EsError(
        'routing_missing_exception',
        `routing is required for [${idx.name}]/[${idx.typeName}]/[${id}]`,
        400,
        {
          meta: { index_uuid: idx.uuid, index: idx.name },
        },
      );
    }
    const shards = idx.numberOfShards;
    // one shard takes every routing (the hash modulo the routing shards, scaled down to one)
    if (shards === 1) return idx.shard(0);
    return idx.shard(shardForRouting(routing ?? id, shards, idx.routingNumShards));
  }

  private shardsInfo(idx: IndexService): ShardsInfo {
    return shardsInfoFor(idx.numberOfReplicas);
  }

  /**
   * Parses `_source` bytes against the index mapping, applying any dynamic mapping update. The
   * bytes to store (`source`) lose a leading byte order mark and have comments (ES allows them)
   * blanked out, so every reader of stored sources sees plain JSON.
   */
  private parse(
    idx: IndexService,
    type: string,
    source: Buffer,
    id: string,
    /** The write's routing (a join field's children require one). */
    routing: string | null,
    /**
     * A copy applying its primary's operation: with no mapping yet it adopts the master's when
     * that is published, and must not give the index a type of its own meanwhile.
     */
    copy = false,
    /** `source` as text, when the caller already decoded it. */
    decoded?: string,
  ): { parsed: ParsedDocument; source: Buffer } {
    // ES DocumentParser.wrapInMapperParsingException
    if (source.length === 0) throw mapperParsing('failed to parse, document is empty');
    let obj: unknown;
    try {
      const text = decoded ?? decodeJson(source);
      const read = parseJsonText(text);
      obj = read.value;
      if (read.text !== text) source = Buffer.from(read.text);
      // the parser skips one byte order mark (more are an error); kept, _source is not JSON
      else if (hasBom(source)) source = source.subarray(3);
    } catch (e) {
      throw mapperParsing('failed to parse', toEsError(e));
    }
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
      throw mapperParsing(
        'failed to parse',
        new EsError(
          'not_x_content_exception',
          'Compressor detection can only be called on some xcontent bytes or compressed xcontent bytes',
          400,
        ),
      );
    }
    const ctx = idx.mappingContext();
    const root: RootMapping = idx.mapping ?? parseMapping(type, {}, ctx);
    const parsed = parseDocument(root, obj, ctx, id, routing);
    // checked once the mapping limits had their say, before the dynamic update applies
    if (nestedDeeperThan(obj, MAX_SOURCE_DEPTH)) throw sourceTooDeep();
    if (copy && !idx.mapping) {
      // the primary's mapping reaches this node through the master
    } else if (parsed.dynamicUpdate) {
      idx.applyDynamicUpdate(parsed.dynamicUpdate);
      void idx.persist();
    } else if (!idx.mapping) {
      idx.applyDynamicUpdate(root);
      void idx.persist();
    }
    return { parsed, source };
  }

  /** The existing index a write to `name` (an index or a write alias) goes to, if any. */
  writeTarget(name: string): IndexService | undefined {
    return this.indices.get(name) ?? this.indices.resolveWriteAlias(name) ?? undefined;
  }

  /**
   * Where a write goes, before anything runs (ES TransportBulkAction on the coordinating node):
   * the request checked and normalised (date math, a write alias's index and routing, an id
   * generated for an index request without one), its concrete index and shard number. `missing`
   * names an index that does not exist (the caller may create it, then route again). Throws what
   * the write itself would throw for a bad request, so nothing is created for it.
   */
  routeWrite<R extends WriteRequest>(
    req: R,
  ): { req: R; index: IndexService; shard: number } | { missing: string } {
    const problems = validateWrite(req);
    if (problems.length) throw actionRequestValidation(problems);
    checkWriteType(req.type);
    req = dateMathResolved(req);
    if (req.kind === 'index' && req.id === '')
      throw illegalArgument('if _id is specified it must not be empty');
    const idx = this.indices.get(req.index) ?? this.indices.resolveWriteAlias(req.index);
    if (!idx) {
      // ES auto-creates the index of an index, update (upsert) or delete request alike
      if (!this.opts.autoCreateIndex) throw indexNotFoundFor(req.index);
      return { missing: req.index };
    }
    if (idx.closed) {
      throw new EsError('index_closed_exception', 'closed', 400, {
        meta: { index_uuid: idx.uuid, index: idx.name },
      });
    }
    checkBlock(idx.meta.settings, 'write');
    req = this.aliasRouted(req);
    // one copy of the request at most (a bulk routes thousands)
    if (req.index !== idx.name || req.id === null)
      req = { ...req, index: idx.name, id: req.id ?? timeBasedId() };
    return { req, index: idx, shard: this.route(idx, req.id!, req.routing).id };
  }

  index(req: IndexRequest): WriteOutcome {
    const t0 = clockMs();
    const problems = validateWrite(req);
    if (problems.length) throw actionRequestValidation(problems);
    checkWriteType(req.type);
    req = dateMathResolved(req);
    if (req.id === '') throw illegalArgument('if _id is specified it must not be empty');
    const idx = this.writeIndex(req.index);
    req = this.aliasRouted(req);
    const type = idx.typeForWrite(req.type);
    const autoId = req.id === null;
    const id = req.id ?? timeBasedId();
    const shard = this.route(idx, id, req.routing);
    if (idx.failed)
      throw primaryNotActive(
        idx.name,
        shard.id,
        indexRequestText(idx.name, req.type, id, req.source),
      );
    const decoded = req.decoded !== undefined && req.decoded.of === req.source ? req.decoded.text : undefined; // prettier-ignore
    const { parsed, source } = this.parse(idx, type, req.source, id, req.routing, false, decoded);
    if (source !== req.source) req = { ...req, source };
    const expected = req.opType === 'create' ? MATCH_DELETED : req.version;
    const current = autoId ? null : shard.current(id);
    const plan = planWrite(current, {
      version: expected,
      versionType: req.versionType,
      ...(req.ifSeqNo !== undefined
        ? { ifSeqNo: req.ifSeqNo, ifPrimaryTerm: req.ifPrimaryTerm ?? 0 }
        : {}),
    });
    if (!plan.ok)
      throw shard.counters.indexFailedWith(
        versionConflict(type, id, plan.explanation, idx.name, idx.uuid, shard.id),
      );
    shard.search?.check(parsed);
    const seqNo = shard.nextSeqNo();
    void shard.putDoc(id, req.routing, req.source, plan.newVersion, seqNo, current);
    shard.search?.add(id, parsed, seqNo, plan.newVersion, req.routing, !autoId && current !== null);
    const created = plan.currentNotFoundOrDeleted;
    shard.counters.indexed(t0, req.source.length);
    return {
      status: created ? 201 : 200,
      index: idx,
      shard,
      routing: req.routing,
      source: req.source,
      body: {
        _index: idx.name,
        _type: req.type,
        _id: id,
        _version: plan.newVersion,
        result: created ? 'created' : 'updated',
        _shards: this.shardsInfo(idx),
        _seq_no: seqNo,
        _primary_term: shard.primaryTerm,
      },
    };
  }

  delete(req: DeleteRequest): WriteOutcome {
    const t0 = clockMs();
    const problems = validateWrite(req);
    if (problems.length) throw actionRequestValidation(problems);
    checkWriteType(req.type);
    req = dateMathResolved(req);
    const idx = this.existingIndexForWrite(req.index);
    req = this.aliasRouted(req);
    const type = idx.typeForWrite(req.type);
    const id = req.id!;
    const shard = this.route(idx, id, req.routing);
    if (idx.failed)
      throw primaryNotActive(idx.name, shard.id, `delete {[${idx.name}][${req.type}][${id}]}`);
    const current = shard.current(id);
    const plan = planWrite(current, {
      version: req.version,
      versionType: req.versionType,
      ...(req.ifSeqNo !== undefined
        ? { ifSeqNo: req.ifSeqNo, ifPrimaryTerm: req.ifPrimaryTerm ?? 0 }
        : {}),
    });
    if (!plan.ok) throw versionConflict(type, id, plan.explanation, idx.name, idx.uuid, shard.id);
    const seqNo = shard.nextSeqNo();
    void shard.putTombstone(id, req.routing, plan.newVersion, seqNo, current);
    const found = !plan.currentNotFoundOrDeleted;
    if (found) shard.search?.delete(id);
    shard.counters.deleted(t0);
    return {
      status: found ? 200 : 404,
      index: idx,
      shard,
      routing: req.routing,
      source: null,
      body: {
        _index: idx.name,
        _type: req.type,
        _id: id,
        _version: plan.newVersion,
        result: found ? 'deleted' : 'not_found',
        _shards: this.shardsInfo(idx),
        _seq_no: seqNo,
        _primary_term: shard.primaryTerm,
      },
    };
  }

  /**
   * Applies an operation the primary replicated (or a recovery or resync sent) to this node's
   * copy of the shard, with the primary's sequence number, term and version. Idempotent and
   * order-free: an operation older than what the copy holds for the document is skipped (ES
   * InternalEngine.planIndexingAsNonPrimary). Refuses an operation of an older primary term.
   * `done` resolves once the copy has it on disk.
   */
  applyReplicated(
    idx: IndexService,
    shardNo: number,
    op: ReplicatedOperation,
    /**
     * The term of the primary that sent it (ES checks the request's term, not the operation's:
     * a recovery or resync replays older operations with their own terms). Null: a recovery
     * replay, which has no term of its own to check.
     */
    requestTerm: number | null = op.primaryTerm,
  ): { applied: boolean; done: Promise<void> } {
    const shard = idx.shard(shardNo);
    if (requestTerm !== null) {
      checkOperationTerm(shard.primaryTerm, requestTerm, idx.name, shardNo);
      shard.raisePrimaryTerm(requestTerm);
    }
    if (op.seqNo > shard.maxSeqNo) shard.maxSeqNo = op.seqNo;
    const latest = shard.latest(op.id);
    if (planReplicaOperation(latest, op) === 'stale')
      return { applied: false, done: Promise.resolve() };
    const current = latest && { ...latest };
    if (op.kind === 'index') {
      const { parsed, source } = this.parse(
        idx,
        idx.typeName ?? '_doc',
        op.source,
        op.id,
        op.routing,
        true,
      );
      shard.search?.check(parsed);
      const done = shard.putDoc(op.id, op.routing, source, op.version, op.seqNo, current, op.primaryTerm); // prettier-ignore
      shard.search?.add(op.id, parsed, op.seqNo, op.version, op.routing, latest !== null);
      shard.counters.indexed(clockMs(), source.length);
      return { applied: true, done };
    }
    const done = shard.putTombstone(op.id, op.routing, op.version, op.seqNo, current, op.primaryTerm); // prettier-ignore
    if (latest && !latest.deleted) shard.search?.delete(op.id);
    shard.counters.deleted(clockMs());
    return { applied: true, done };
  }

  /**
   * Resets a document of a recovering copy to its primary's record (`null`: the primary has none,
   * the record goes), whatever the copy held: the rollback of operations a new primary never had.
   * Only before the copy takes live operations; `done` resolves when the store has it.
   */
  resetForRecovery(
    idx: IndexService,
    shardNo: number,
    id: string,
    record: DocRecord | null,
  ): Promise<void> {
    const shard = idx.shard(shardNo);
    const latest = shard.latest(id);
    if (latest && !latest.deleted) shard.search?.delete(id);
    if (record === null) return shard.purge(id);
    const current = latest && { ...latest };
    if (record.tombstone)
      return shard.putTombstone(id, record.routing, record.version, record.seqNo, current, record.primaryTerm); // prettier-ignore
    const { parsed, source } = this.parse(
      idx,
      idx.typeName ?? '_doc',
      record.source,
      id,
      record.routing,
      true,
    );
    const done = shard.putDoc(id, record.routing, source, record.version, record.seqNo, current, record.primaryTerm); // prettier-ignore
    shard.search?.add(id, parsed, record.seqNo, record.version, record.routing, true);
    return done;
  }

  /** Delete, update and get need the index to exist (only index/create auto-create). */
  private existingIndexForWrite(name: string): IndexService {
    const idx = this.indices.get(name) ?? this.indices.resolveWriteAlias(name);
    if (!idx) {
      if (this.opts.autoCreateIndex) return this.writeIndex(name);
      throw indexNotFoundFor(name);
    }
    if (idx.closed) {
      throw new EsError('index_closed_exception', 'closed', 400, {
        meta: { index_uuid: idx.uuid, index: idx.name },
      });
    }
    checkBlock(idx.meta.settings, 'write');
    return idx;
  }

  update(req: UpdateRequest): WriteOutcome {
    const problems = validateWrite(req);
    if (problems.length) throw actionRequestValidation(problems);
    checkWriteType(req.type);
    req = dateMathResolved(req);
    const idx = this.existingIndexForWrite(req.index);
    req = this.aliasRouted(req);
    const type = idx.typeForWrite(req.type);
    const id = req.id!;
    const shard = this.route(idx, id, req.routing);
    if (idx.failed) throw updateShardUnavailable(idx.name, shard.id);
    const existing = shard.read(id);
    const cas =
      req.ifSeqNo !== undefined
        ? { ifSeqNo: req.ifSeqNo, ifPrimaryTerm: req.ifPrimaryTerm ?? 0 }
        : {};
    const body = req.body;
    if (!existing) {
      // ES UpdateHelper: upsert, doc_as_upsert, or document_missing_exception.
      let upsert: unknown;
      if (body.upsert !== undefined) upsert = body.upsert;
      else if (body.doc_as_upsert === true && body.doc !== undefined) upsert = body.doc;
      if (
        upsert !== undefined &&
        body.scripted_upsert === true &&
        body.script !== undefined &&
        this.opts.runScript
      ) {
        const ctx: Record<string, unknown> = { op: 'create', _source: upsert, _now: Date.now() };
        runUpdateScript(this.opts.runScript, body.script, ctx);
        upsert = ctx._source;
        ensureNoSelfReferences(upsert);
      }
      if (upsert === undefined) throw documentMissing(type, id, idx.name, idx.uuid, shard.id);
      if (req.ifSeqNo !== undefined) {
        throw versionConflict(
          type,
          id,
          `required seqNo [${req.ifSeqNo}], primary term [${req.ifPrimaryTerm}]. but no document was found`,
          idx.name,
          idx.uuid,
          shard.id,
        );
      }
      let ir: IndexRequest = {
        kind: 'index',
        opType: 'create',
        index: idx.name,
        type,
        id,
        routing: req.routing,
        version: MATCH_ANY,
        versionType: 'internal',
        source: Buffer.from(stringifyDeep(upsert, true)),
      };
      if (req.prepareUpsert) {
        const prepared = req.prepareUpsert(ir);
        if (!('kind' in prepared)) return { ...prepared, index: null, shard: null };
        ir = prepared;
      }
      const out = this.index(ir);
      return this.withGet(out, req, upsert);
    }
    if (req.version !== MATCH_ANY) {
      const c = readConflict('internal', existing.version, req.version);
      if (c) throw versionConflict(type, id, c, idx.name, idx.uuid, shard.id);
    }
    if (
      req.ifSeqNo !== undefined &&
      (existing.seqNo !== req.ifSeqNo || existing.primaryTerm !== req.ifPrimaryTerm)
    ) {
      throw versionConflict(
        type,
        id,
        `required seqNo [${req.ifSeqNo}], primary term [${req.ifPrimaryTerm}]. current document has seqNo [${existing.seqNo}] and primary term [${existing.primaryTerm}]`,
        idx.name,
        idx.uuid,
        shard.id,
      );
    }
    const current = JSON.parse(existing.source.toString('utf8')) as Record<string, unknown>;
    if (body.doc === undefined && body.script === undefined) {
      throw actionRequestValidation(['script or doc is missing']);
    }
    let merged: Record<string, unknown>;
    let changed: boolean;
    if (body.script !== undefined) {
      // ES UpdateHelper.prepareUpdateScriptRequest: the script edits ctx._source and may set ctx.op.
      if (!this.opts.runScript) throw illegalArgument('scripts are not supported');
      const ctx: Record<string, unknown> = {
        _index: idx.name,
        _type: type,
        _id: id,
        _version: existing.version,
        _routing: existing.routing,
        _now: Date.now(),
        op: 'index',
        _source: current,
      };
      runUpdateScript(this.opts.runScript, body.script, ctx);
      const op = String(ctx.op);
      if (op === 'delete') {
        const del = this.delete({
          kind: 'delete',
          index: idx.name,
          type,
          id,
          routing: req.routing ?? existing.routing,
          version: MATCH_ANY,
          versionType: 'internal',
        });
        return del;
      }
      merged = ctx._source as Record<string, unknown>;
      changed = op !== 'none' && op !== 'noop';
      // UpdateHelper writes the new source as JSON, which refuses a source that contains itself.
      if (changed) ensureNoSelfReferences(merged);
      if (!changed) {
        shard.counters.noopUpdateTotal++;
        const out: WriteOutcome = {
          status: 200,
          index: idx,
          shard: null,
          noopOf: shard,
          body: {
            _index: idx.name,
            _type: type,
            _id: id,
            _version: existing.version,
            result: 'noop',
            _shards: { total: 0, successful: 0, failed: 0 },
            _seq_no: existing.seqNo,
            _primary_term: existing.primaryTerm,
          },
        };
        return this.withGet(out, req, merged);
      }
    } else {
      // ES reads `doc` with parser.map(): null, a scalar or an array gives no fields (a noop).
      const doc =
        body.doc && typeof body.doc === 'object' && !Array.isArray(body.doc) ? body.doc : {};
      ({ merged, changed } = mergeForUpdate(current, doc as Record<string, unknown>));
    }
    const detectNoop = body.script === undefined && body.detect_noop !== false;
    if (detectNoop && !changed) {
      shard.counters.noopUpdateTotal++;
      const out: WriteOutcome = {
        status: 200,
        index: idx,
        shard: null,
        noopOf: shard,
        body: {
          _index: idx.name,
          _type: type,
          _id: id,
          _version: existing.version,
          result: 'noop',
          _shards: { total: 0, successful: 0, failed: 0 },
          _seq_no: existing.seqNo,
          _primary_term: existing.primaryTerm,
        },
      };
      return this.withGet(out, req, merged);
    }
    const out = this.index({
      kind: 'index',
      opType: 'index',
      index: idx.name,
      type,
      id,
      routing: req.routing ?? existing.routing,
      version: MATCH_ANY,
      versionType: 'internal',
      ...cas,
      source: Buffer.from(stringifyDeep(merged, true)),
    });
    return this.withGet(out, req, merged);
  }

  private withGet(out: WriteOutcome, req: UpdateRequest, source: unknown): WriteOutcome {
    if (!req.fetchSource) return out;
    out.body.get = {
      _seq_no: out.body._seq_no,
      _primary_term: out.body._primary_term,
      found: true,
      _source: filterSource(source, req.fetchSource),
    };
    return out;
  }

  /** GET (ES ShardGetService): realtime reads the latest write; realtime=false the refreshed view. */
  get(
    idx: IndexService,
    type: string,
    id: string,
    routing: string | null,
    opts: {
      version?: number;
      versionType?: VersionType;
      source: SourceFilter | null;
      storedFields?: string[] | null;
      realtime?: boolean;
    },
  ): { found: boolean; body: Record<string, unknown>; sourceDisabled: boolean } {
    const t0 = clockMs();
    if (idx.failed) throw noShardForGet(idx.name, type, id, routing);
    const shard = this.route(idx, id, routing);
    const resolvedType = idx.resolveType(type);
    let doc = shard.read(id);
    if (doc && opts.realtime === false && !shard.searcherHas(id, doc.seqNo)) doc = null;
    const typeOk = type === '_all' || idx.typeName === null || resolvedType === idx.typeName;
    const shownType = type === '_all' ? (idx.typeName ?? type) : type;
    if (!doc || !typeOk) {
      shard.counters.got(t0, false);
      return {
        found: false,
        body: { _index: idx.name, _type: shownType, _id: id, found: false },
        sourceDisabled: false,
      };
    }
    if (opts.version !== undefined && opts.version !== MATCH_ANY) {
      const c = readConflict(opts.versionType ?? 'internal', doc.version, opts.version);
      if (c)
        throw versionConflict(idx.typeName ?? resolvedType, id, c, idx.name, idx.uuid, shard.id);
    }
    const body: Record<string, unknown> = {
      _index: idx.name,
      _type: shownType,
      _id: id,
      _version: doc.version,
      _seq_no: doc.seqNo,
      _primary_term: doc.primaryTerm,
    };
    if (doc.routing !== null) body._routing = doc.routing;
    body.found = true;
    const sourceDisabled = idx.mapping?.source.enabled === false;
    if (opts.source && !sourceDisabled) body._source = sourceForResponse(doc.source, opts.source);
    if (opts.storedFields && opts.storedFields.length) {
      const fields = storedFieldValues(idx, doc.source, opts.storedFields);
      if (Object.keys(fields).length) body.fields = fields;
    }
    shard.counters.got(t0, true);
    return { found: true, body, sourceDisabled };
  }
}

/** Values of `store: true` fields, read from the source (ES keeps them as stored fields). */
function storedFieldValues(
  idx: IndexService,
  source: Buffer,
  names: string[],
): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  let parsed: unknown;
  for (const name of names) {
    if (name === '_source' || name === '_none_') continue;
    const f = idx.mapping ? lookupField(idx.mapping, name) : undefined;
    if (!f || !f.store) continue;
    parsed ??= JSON.parse(source.toString('utf8'));
    const v = valueAtPath(parsed, name);
    if (v === undefined || v === null) continue;
    out[name] = Array.isArray(v) ? v : [v];
  }
  return out;
}

/** Reads `a.b.c` from a source object, whether written nested or with dotted keys. */
export function valueAtPath(src: unknown, path: string): unknown {
  if (src === null || typeof src !== 'object') return undefined;
  const o = src as Record<string, unknown>;
  if (path in o) return o[path];
  for (let i = path.indexOf('.'); i >= 0; i = path.indexOf('.', i + 1)) {
    const head = path.slice(0, i);
    if (!(head in o)) continue;
    const inner = o[head];
    const rest = path.slice(i + 1);
    if (Array.isArray(inner)) {
      const vals = inner
        .map((x) => valueAtPath(x, rest))
        .filter((x) => x !== undefined)
        .flat();
      return vals.length ? vals : undefined;
    }
    const v = valueAtPath(inner, rest);
    if (v !== undefined) return v;
  }
  return undefined;
}

export function indexNotFoundFor(name: string): EsError {
  return new EsError('index_not_found_exception', 'no such index', 404, {
    meta: {
      'resource.type': 'index_expression',
      'resource.id': name,
      index_uuid: '_na_',
      index: name,
    },
  });
}

/** The stored bytes when unfiltered (kept verbatim), otherwise the filtered object. */
export function sourceForResponse(bytes: Buffer, filter: SourceFilter): unknown {
  if (filter.includes.length === 0 && filter.excludes.length === 0) return RawJson.ofUtf8(bytes);
  return filterSource(JSON.parse(bytes.toString('utf8')), filter);
}

/**
 * ES UpdateHelper.executeScript: any failure to compile or run the script is an
 * IllegalArgumentException "failed to execute script" (400) caused by it.
 */
function runUpdateScript(
  run: (script: unknown, ctx: Record<string, unknown>) => void,
  script: unknown,
  ctx: Record<string, unknown>,
): void {
  try {
    run(script, ctx);
  } catch (e) {
    throw new EsError('illegal_argument_exception', 'failed to execute script', 400, {
      causedBy: toEsError(e),
    });
  }
}
