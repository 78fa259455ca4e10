/**
 * A position in JSON request text as Jackson reports it: 1-based line and column, a newline
 * starting the next line. Shared by the syntax check and the binder, whose messages quote it.
 */
export const JACKSON_SOURCE = 'REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled)';

export class JsonCursor {
  i = 0;
  line = 1;
  col = 1;
  constructor(readonly text: string) {}
  /** The character at the cursor (undefined at the end). */
  get ch(): string | undefined {
    return this.text[this.i];
  }
  get done(): boolean {
    return this.i >= this.text.length;
  }
  adv(): void {
    if (this.text[this.i] === '\n') {
      this.line++;
      this.col = 1;
    } else this.col++;
    this.i++;
  }
  /** Skips JSON whitespace. */
  ws(): void {
    while (this.i < this.text.length && /[ \t\r\n]/.test(this.text[this.i]!)) this.adv();
  }
}
