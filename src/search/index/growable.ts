/** Append-only typed-array buffers for the indexing buffer (amortised doubling). */

export class IntBuf {
  data: Int32Array;
  length = 0;
  constructor(cap = 8) {
    this.data = new Int32Array(cap);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const n = new Int32Array(this.data.length * 2);
      n.set(this.data);
      this.data = n;
    }
    this.data[this.length++] = v;
  }
  last(): number {
    return this.data[this.length - 1]!;
  }
  setLast(v: number): void {
    this.data[this.length - 1] = v;
  }
  toArray(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

export class FloatBuf {
  data: Float64Array;
  length = 0;
  constructor(cap = 8) {
    this.data = new Float64Array(cap);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const n = new Float64Array(this.data.length * 2);
      n.set(this.data);
      this.data = n;
    }
    this.data[this.length++] = v;
  }
  toArray(): Float64Array {
    return this.data.slice(0, this.length);
  }
}
