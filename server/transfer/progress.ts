/**
 * What a long command (backup, restore, export, import) has done so far. The domain
 * code reports into it; the CLI shows it as one updating line when its output is a
 * terminal, and always ends with a one-line summary.
 */
export interface Progress {
  /** What is being done now, e.g. "Reading newsletter_subscribers". */
  step(label: string): void;
  rows(count: number): void;
  file(bytes: number): void;
}

export interface Totals {
  tables: number;
  rows: number;
  files: number;
  bytes: number;
}

export const silentProgress: Progress = { step() {}, rows() {}, file() {} };

/** Counts what is reported and, on a terminal, redraws one line at most 10 times a second. */
export function terminalProgress(output: NodeJS.WritableStream): Progress & { totals: Totals; finish(): void } {
  const tty = (output as NodeJS.WriteStream).isTTY === true;
  const totals: Totals = { tables: 0, rows: 0, files: 0, bytes: 0 };
  let label = "";
  let drawnAt = 0;
  let drawn = false;
  const draw = (force = false) => {
    if (!tty) return;
    const now = Date.now();
    if (!force && now - drawnAt < 100) return;
    drawnAt = now;
    const line = `${label} — ${totals.rows.toLocaleString("en")} rows, ${totals.files} files, ${formatBytes(totals.bytes)}`;
    const width = (output as NodeJS.WriteStream).columns ?? 80;
    output.write(`\r\x1b[2K${line.slice(0, width - 1)}`);
    drawn = true;
  };
  return {
    totals,
    step(next) {
      label = next;
      draw(true);
    },
    rows(count) {
      totals.rows += count;
      draw();
    },
    file(bytes) {
      totals.files++;
      totals.bytes += bytes;
      draw();
    },
    finish() {
      if (drawn) output.write("\r\x1b[2K");
      drawn = false;
    },
  };
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

/** The one-line summary every long command ends with. */
export function summaryLine(verb: string, totals: Totals, seconds: number, where?: string): string {
  const rows = totals.rows.toLocaleString("en");
  return `${verb} ${totals.tables} tables, ${rows} rows, ${totals.files} files (${formatBytes(totals.bytes)})${where ? ` ${where}` : ""} in ${seconds.toFixed(1)} s.`;
}
