/**
 * The contract of a server peer in Quarry's bench: the shape of the shared harness's peers
 * (`load`, `queries[id]`, `close`), for peers that are separate server processes reached over
 * their own wire protocol. `load` starts the server on loopback and loads the documents through
 * that protocol; `close` stops it and removes its files.
 */
export type Row = Record<string, unknown>;
export type Params = Record<string, unknown>;

export interface WorkloadIndex {
  file: string;
  mappings: Record<string, string>;
}

export interface WorkloadQuery {
  id: string;
  index: string;
  params: Record<string, string>;
}

export interface PeerHandle {
  /** Server version and setup, printed under the table. */
  note: string;
  /** Bytes on disk after load (data directory), when the peer can tell. */
  diskBytes?: number;
}

export interface ServerPeer<H extends PeerHandle> {
  name: string;
  /** Null when the server's binaries are missing; `.ci/run` and the bench install them. */
  available(): string | null;
  load(index: string, docs: Row[], spec: WorkloadIndex): Promise<H>;
  /** Each workload query this peer expresses, by id; a missing id is reported "not expressible". */
  queries: Record<string, (h: H, p: Params) => Promise<Row[]>>;
  close(h: H): Promise<void>;
}
