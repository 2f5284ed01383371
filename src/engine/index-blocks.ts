/**
 * Index blocks set by `index.blocks.*` settings (ES IndexMetaData's INDEX_*_BLOCK constants):
 * which operation levels each one blocks, and the cluster_block_exception (403) ES raises, with
 * the message ClusterBlockException builds ("blocked by: [FORBIDDEN/8/index write (api)];").
 * `_freeze` sets index.blocks.write, so frozen indices refuse writes through this too. The
 * cluster state lists the same blocks, plus the one a closed index carries.
 */
import { EsError } from '../common/errors.js';

export type BlockLevel = 'read' | 'write' | 'metadata_read' | 'metadata_write';

interface Block {
  setting: string;
  id: number;
  description: string;
  levels: readonly BlockLevel[];
}

// Ordered by id, as the message lists them.
const BLOCKS: readonly Block[] = [
  { setting: 'index.blocks.read_only', id: 5, description: 'index read-only (api)', levels: ['write', 'metadata_write'] }, // prettier-ignore
  { setting: 'index.blocks.read', id: 7, description: 'index read (api)', levels: ['read'] },
  { setting: 'index.blocks.write', id: 8, description: 'index write (api)', levels: ['write'] },
  { setting: 'index.blocks.metadata', id: 9, description: 'index metadata (api)', levels: ['metadata_read', 'metadata_write'] }, // prettier-ignore
  { setting: 'index.blocks.read_only_allow_delete', id: 12, description: 'index read-only / allow delete (api)', levels: ['write', 'metadata_write'] }, // prettier-ignore
];

/** The block error for `level` on an index with these settings, or null when nothing blocks. */
export function blockedException(
  settings: Readonly<Record<string, unknown>>,
  level: BlockLevel,
): EsError | null {
  // the usual index sets no block: every write checks, so that answer costs a lookup per block
  let any = false;
  for (const b of BLOCKS) if (settings[b.setting] !== undefined) any = true;
  if (!any) return null;
  let message: string | null = null;
  for (const b of BLOCKS) {
    if (String(settings[b.setting]) !== 'true' || !b.levels.includes(level)) continue;
    message = (message ?? 'blocked by: ') + `[FORBIDDEN/${b.id}/${b.description}];`;
  }
  return message === null ? null : new EsError('cluster_block_exception', message, 403);
}

export function checkBlock(settings: Readonly<Record<string, unknown>>, level: BlockLevel): void {
  const e = blockedException(settings, level);
  if (e) throw e;
}

/** A block as the cluster state lists it (ES ClusterBlock.toXContent); no index block is retryable. */
export interface IndexBlock {
  id: number;
  description: string;
  levels: readonly BlockLevel[];
}

/** ES MetaDataIndexStateService.INDEX_CLOSED_BLOCK: what a closed index carries. */
const CLOSED_BLOCK: IndexBlock = { id: 4, description: 'index closed', levels: ['read', 'write'] };

/** The blocks an index carries (ES ClusterBlocks.Builder.addBlocks), ordered by id. */
export function indexBlocks(
  settings: Readonly<Record<string, unknown>>,
  closed: boolean,
): IndexBlock[] {
  const out: IndexBlock[] = closed ? [CLOSED_BLOCK] : [];
  for (const b of BLOCKS) if (String(settings[b.setting]) === 'true') out.push(b);
  return out;
}
