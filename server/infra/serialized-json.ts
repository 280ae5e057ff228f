/**
 * A JSON answer serialized once and kept (the public fundraiser and artist cache), with the
 * compressed copies the HTTP layer makes of it on first need (server/http/compression.ts), so a
 * cached answer costs neither JSON.stringify nor compression again. Never holds what depends on
 * who asks.
 */
export class SerializedJson {
  readonly text: string;
  /** Compressed copies by content coding ('br', 'gzip'), filled by the HTTP layer. */
  readonly encoded = new Map<string, Uint8Array>();

  constructor(readonly value: unknown) {
    this.text = JSON.stringify(value);
  }

  /** Serialized again (a plain c.json, as for HEAD), it is its value. */
  toJSON() {
    return this.value;
  }
}
