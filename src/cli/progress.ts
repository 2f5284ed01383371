/**
 * Progress of a long import or export on stderr: on a terminal a bar redrawn in place (at most
 * five times a second) with docs/s and the time left; otherwise a plain line at each 10%.
 */

export interface ProgressView {
  /** Done so far, 0..1 (bytes read of the file, or hits exported of the total). */
  readonly fraction: number;
  readonly docs: number;
  readonly elapsedMs: number;
}

const clock = (s: number): string => {
  if (!Number.isFinite(s)) return '--:--';
  const t = Math.max(0, Math.round(s));
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const sec = String(t % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
};

export const rate = (docs: number, ms: number): number => (ms > 0 ? (docs * 1000) / ms : 0);

export function progressBar(v: ProgressView, width = 30): string {
  const f = Math.min(1, Math.max(0, v.fraction));
  const full = Math.round(f * width);
  const eta = f > 0 ? ((1 - f) * v.elapsedMs) / f / 1000 : Infinity;
  return (
    `[${'#'.repeat(full)}${'-'.repeat(width - full)}] ${(f * 100).toFixed(0).padStart(3)}% ` +
    `${v.docs.toLocaleString('en-US')} docs ${Math.round(rate(v.docs, v.elapsedMs)).toLocaleString('en-US')} docs/s ` +
    `ETA ${clock(eta)}`
  );
}

export function progressLine(label: string, v: ProgressView): string {
  return `${label}: ${Math.floor(v.fraction * 100)}% ${v.docs} docs ${Math.round(rate(v.docs, v.elapsedMs))} docs/s`; // prettier-ignore
}

export interface Progress {
  update(fraction: number, docs: number): void;
  /** Clears the bar (terminal) before the summary. */
  done(): void;
}

export function progress(label: string, out: NodeJS.WriteStream, quiet = false): Progress {
  const t0 = performance.now();
  const tty = out.isTTY === true;
  let lastDraw = 0;
  let lastTenth = 0;
  let drawn = false;
  return {
    update(fraction, docs) {
      if (quiet) return;
      const now = performance.now();
      const v = { fraction, docs, elapsedMs: now - t0 };
      if (tty) {
        if (now - lastDraw < 200 && fraction < 1) return;
        lastDraw = now;
        drawn = true;
        out.write(`\r\x1b[K${label} ${progressBar(v)}`);
        return;
      }
      const tenth = Math.floor(Math.min(1, fraction) * 10);
      if (tenth > lastTenth) {
        lastTenth = tenth;
        out.write(progressLine(label, { ...v, fraction: tenth / 10 }) + '\n');
      }
    },
    done() {
      if (tty && drawn) out.write('\r\x1b[K');
    },
  };
}
