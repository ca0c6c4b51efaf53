/**
 * A progress line on the terminal's error stream, redrawn in place: a bar when the fraction done is
 * known, the words alone otherwise. Nothing is drawn when the stream is no terminal (a pipe, a log
 * file): scripts read the final answer, not the frames.
 */
export class ProgressLine {
  private lastDraw = 0;
  private shown = false;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly enabled: boolean,
  ) {}

  update(fraction: number | undefined, words: string, force = false): void {
    if (!this.enabled) return;
    const now = performance.now();
    if (!force && now - this.lastDraw < 80) return;
    this.lastDraw = now;
    const width = Math.max(20, (this.stream.columns ?? 80) - 1);
    let text = words;
    if (fraction !== undefined) {
      const done = Math.min(1, Math.max(0, fraction));
      const barWidth = Math.max(10, Math.min(40, width - words.length - 8));
      const filled = Math.round(done * barWidth);
      text = `[${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}] ${String(Math.floor(done * 100)).padStart(3)}% ${words}`;
    }
    this.stream.write(`\r\x1b[2K${text.slice(0, width)}`);
    this.shown = true;
  }

  /** Clears the line (the answer follows on a clean one). */
  done(): void {
    if (this.enabled && this.shown) this.stream.write('\r\x1b[2K');
    this.shown = false;
  }
}
