/** A one-line progress bar on stderr for a terminal; a line per tenth when stderr is not a terminal. */
export class ProgressBar {
  private readonly startedAt = Date.now();
  private lastDrawnAt = 0;
  private lastTenth = -1;

  constructor(
    private readonly label: string,
    private readonly totalBytes: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  update(doneBytes: number): void {
    const now = Date.now();
    const fraction = this.totalBytes === 0 ? 1 : Math.min(1, doneBytes / this.totalBytes);
    if (!this.stream.isTTY) {
      const tenth = Math.floor(fraction * 10);
      if (tenth > this.lastTenth) {
        this.lastTenth = tenth;
        this.stream.write(`${this.label}: ${tenth * 10}%\n`);
      }
      return;
    }
    if (now - this.lastDrawnAt < 100 && fraction < 1) return;
    this.lastDrawnAt = now;
    const width = 30;
    const filled = Math.round(fraction * width);
    const seconds = Math.max(0.001, (now - this.startedAt) / 1000);
    const rate = doneBytes / seconds / 1024 / 1024;
    const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
    const percent = (fraction * 100).toFixed(0).padStart(3);
    this.stream.write(`\r${this.label} [${bar}] ${percent}%  ${rate.toFixed(1)} MiB/s `);
  }

  finish(): void {
    if (this.stream.isTTY) this.stream.write('\n');
  }
}
