/**
 * Transport traffic counters: global ones for the `transport` section of `_nodes/stats`
 * (ES TransportStats: server_open, rx_count, rx_size_in_bytes, tx_count, tx_size_in_bytes) and the
 * same per peer node, for diagnosing one link.
 */
import { formatByteSize } from '../../common/units.js';

export interface TrafficStats {
  rx_count: number;
  rx_size_in_bytes: number;
  tx_count: number;
  tx_size_in_bytes: number;
}

export interface TransportStats extends TrafficStats {
  /** Open inbound (server side) connections. */
  readonly server_open: number;
  /** By peer node id. */
  readonly peers: Readonly<Record<string, Readonly<TrafficStats>>>;
}

export interface StatsRecorder {
  rx(bytes: number, peerId: string | null): void;
  tx(bytes: number, peerId: string | null): void;
  serverOpened(): void;
  serverClosed(): void;
  snapshot(): TransportStats;
}

const zero = (): TrafficStats => ({
  rx_count: 0,
  rx_size_in_bytes: 0,
  tx_count: 0,
  tx_size_in_bytes: 0,
});

export function createStatsRecorder(): StatsRecorder {
  const total = zero();
  const peers = new Map<string, TrafficStats>();
  let serverOpen = 0;
  const peer = (id: string) => {
    let s = peers.get(id);
    if (!s) peers.set(id, (s = zero()));
    return s;
  };
  return {
    rx(bytes, peerId) {
      total.rx_count++;
      total.rx_size_in_bytes += bytes;
      if (peerId !== null) {
        const s = peer(peerId);
        s.rx_count++;
        s.rx_size_in_bytes += bytes;
      }
    },
    tx(bytes, peerId) {
      total.tx_count++;
      total.tx_size_in_bytes += bytes;
      if (peerId !== null) {
        const s = peer(peerId);
        s.tx_count++;
        s.tx_size_in_bytes += bytes;
      }
    },
    serverOpened: () => void serverOpen++,
    serverClosed: () => void serverOpen--,
    snapshot: () => ({
      server_open: serverOpen,
      ...total,
      peers: Object.fromEntries([...peers].map(([k, v]) => [k, { ...v }])),
    }),
  };
}

/** The `transport` object of a node in `_nodes/stats`, in ES's field order. */
export function nodeStatsTransport(
  s: TransportStats,
  human: boolean,
  fmt: (bytes: number) => string = formatByteSize,
) {
  return {
    server_open: s.server_open,
    rx_count: s.rx_count,
    ...(human ? { rx_size: fmt(s.rx_size_in_bytes) } : {}),
    rx_size_in_bytes: s.rx_size_in_bytes,
    tx_count: s.tx_count,
    ...(human ? { tx_size: fmt(s.tx_size_in_bytes) } : {}),
    tx_size_in_bytes: s.tx_size_in_bytes,
  };
}
