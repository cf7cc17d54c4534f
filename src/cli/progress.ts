/**
 * A one-line progress bar on stderr when it is a terminal; silent otherwise (logs and pipes stay
 * clean). Redraws at most every 100 ms.
 */
export class Progress {
  private last = 0;
  private readonly tty = process.stderr.isTTY === true;

  constructor(private readonly label: string) {}

  update(done: number, total?: number, note = ''): void {
    if (!this.tty) return;
    const now = Date.now();
    if (now - this.last < 100 && (total === undefined || done < total)) return;
    this.last = now;
    const width = 30;
    let line: string;
    if (total && total > 0) {
      const frac = Math.min(1, done / total);
      const filled = Math.round(frac * width);
      line = `${this.label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(frac * 100).toFixed(0).padStart(3)}% ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}`;
    } else {
      line = `${this.label} ${done.toLocaleString('en-US')}`;
    }
    process.stderr.write(`\r${line} ${note}\u001b[K`);
  }

  done(): void {
    if (this.tty) process.stderr.write('\n');
  }
}
