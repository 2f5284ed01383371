import { describe, expect, it } from 'vitest';
import {
  createFrameDecoder,
  encodeFrame,
  FLAG_ATTACHMENT,
  FLAG_COMPRESSED,
  FLAG_ERROR,
  FLAG_RESPONSE,
  MAGIC,
  type Frame,
} from '../../../../src/cluster/transport/frame.js';

const frameBytes = (
  requestId: number,
  action: string,
  json: unknown,
  attachment?: Buffer,
  flags = 0,
) =>
  Buffer.concat(
    encodeFrame({
      requestId,
      flags,
      action,
      json: Buffer.from(JSON.stringify(json)),
      ...(attachment ? { attachment } : {}),
    }),
  );

const summary = (f: Frame) => ({
  id: f.requestId,
  flags: f.flags,
  action: f.action,
  json: JSON.parse(f.json.toString('utf8')) as unknown,
  attachment: f.attachment ? [...f.attachment] : undefined,
  size: f.size,
});

describe('transport frames', () => {
  const a = frameBytes(
    7,
    'indices:data/write[p]',
    { doc: { x: 'é' } },
    Buffer.from([0, 1, 2, 255]),
  );
  const b = frameBytes(8, '', { ok: true }, undefined, FLAG_RESPONSE);
  const c = frameBytes(4294967295, 'x', null, Buffer.alloc(0), FLAG_RESPONSE | FLAG_ERROR);
  const stream = Buffer.concat([a, b, c]);

  it('round-trips header, JSON and attachment', () => {
    const r = createFrameDecoder(1 << 20).push(stream);
    expect(r.failure).toBeUndefined();
    expect(r.frames.map(summary)).toEqual([
      {
        id: 7,
        flags: FLAG_ATTACHMENT,
        action: 'indices:data/write[p]',
        json: { doc: { x: 'é' } },
        attachment: [0, 1, 2, 255],
        size: a.length,
      },
      {
        id: 8,
        flags: FLAG_RESPONSE,
        action: '',
        json: { ok: true },
        attachment: undefined,
        size: b.length,
      },
      // An empty attachment is still an attachment.
      {
        id: 4294967295,
        flags: FLAG_RESPONSE | FLAG_ERROR | FLAG_ATTACHMENT,
        action: 'x',
        json: null,
        attachment: [],
        size: c.length,
      },
    ]);
  });

  it('decodes the same frames whatever the split: every single cut point, and byte by byte', () => {
    const expected = createFrameDecoder(1 << 20)
      .push(stream)
      .frames.map(summary);
    for (let cut = 0; cut <= stream.length; cut++) {
      const d = createFrameDecoder(1 << 20);
      const r1 = d.push(stream.subarray(0, cut));
      const r2 = d.push(stream.subarray(cut));
      expect(r1.failure ?? r2.failure).toBeUndefined();
      expect([...r1.frames, ...r2.frames].map(summary)).toEqual(expected);
      expect(d.buffered()).toBe(0);
    }
    for (let cut2 = 1; cut2 < stream.length; cut2 += 3) {
      const d = createFrameDecoder(1 << 20);
      const got = [
        ...d.push(stream.subarray(0, 5)).frames,
        ...d.push(stream.subarray(5, cut2)).frames,
        ...d.push(stream.subarray(Math.max(5, cut2))).frames,
      ];
      expect(got.map(summary)).toEqual(expected);
    }
    const d = createFrameDecoder(1 << 20);
    const got: Frame[] = [];
    for (let i = 0; i < stream.length; i++) got.push(...d.push(stream.subarray(i, i + 1)).frames);
    expect(got.map(summary)).toEqual(expected);
  });

  it('hands out a frame that arrives whole as a view of the chunk (no copy)', () => {
    const r = createFrameDecoder(1 << 20).push(a);
    expect(r.frames[0]!.attachment!.buffer).toBe(a.buffer);
  });

  it('writes the attachment as its own buffer, never copied into the header', () => {
    const att = Buffer.alloc(1000, 7);
    const parts = encodeFrame({
      requestId: 1,
      flags: 0,
      action: 'a',
      json: Buffer.from('{}'),
      attachment: att,
    });
    expect(parts[2]).toBe(att);
    expect(parts[0]!.subarray(0, 4)).toEqual(MAGIC);
  });

  it('refuses a frame over the limit from its length alone, before the body arrives', () => {
    const big = frameBytes(1, 'a', {}, Buffer.alloc(2000));
    const d = createFrameDecoder(1024);
    const r = d.push(big.subarray(0, 8));
    expect(r.failure?.kind).toBe('too_large');
    expect(r.failure?.error.reason).toBe(
      'transport content length received [1.9kb] exceeded [1kb]',
    );
    // The decoder stays failed.
    expect(d.push(frameBytes(2, 'a', {})).failure?.kind).toBe('too_large');
  });

  it('recognises HTTP, even a byte at a time', () => {
    for (const req of [
      'GET / HTTP/1.1\r\n',
      'POST /x HTTP/1.1\r\n',
      'PUT /',
      'HEAD /',
      'DELETE /',
    ]) {
      const d = createFrameDecoder(1024);
      const bytes = Buffer.from(req);
      let failure;
      for (let i = 0; i < bytes.length && !failure; i++)
        failure = d.push(bytes.subarray(i, i + 1)).failure;
      expect(failure?.kind).toBe('http');
      expect(failure?.error.reason).toBe('This is not an HTTP port');
    }
  });

  it('refuses garbage at the first byte that cannot start a frame', () => {
    const d = createFrameDecoder(1024);
    const r = d.push(Buffer.from([0x00]));
    expect(r.failure?.kind).toBe('invalid');
    expect(r.failure?.error.reason).toBe('invalid internal transport message format, got (0)');
  });

  it('refuses inconsistent headers, unknown flags and compression', () => {
    const good = frameBytes(1, 'abc', { a: 1 });
    const withFlag = Buffer.from(good);
    withFlag[12] = 0x80;
    expect(createFrameDecoder(1024).push(withFlag).failure?.error.reason).toBe(
      'invalid transport frame: unknown flags [128]',
    );
    const compressed = Buffer.from(good);
    compressed[12] = FLAG_COMPRESSED;
    expect(createFrameDecoder(1024).push(compressed).failure?.error.reason).toBe(
      'invalid transport frame: compressed frames are not supported',
    );
    const jsonTooLong = Buffer.from(good);
    jsonTooLong.writeUInt32BE(0xffffff, 15);
    expect(createFrameDecoder(1024).push(jsonTooLong).failure?.error.reason).toBe(
      'invalid transport frame: header lengths exceed the frame',
    );
    const short = Buffer.from(good.subarray(0, 8));
    short.writeUInt32BE(3, 4);
    expect(createFrameDecoder(1024).push(short).failure?.kind).toBe('invalid');
  });

  it('never throws on random bytes, with or without a valid prefix', () => {
    let seed = 12345;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
    for (let i = 0; i < 2000; i++) {
      const len = 1 + (rnd() % 64);
      const junk = Buffer.from(Array.from({ length: len }, rnd));
      const withMagic = Buffer.concat([MAGIC, junk]);
      for (const input of [junk, withMagic]) {
        const d = createFrameDecoder(1024);
        expect(() => {
          for (let k = 0; k < input.length; k += 7) d.push(input.subarray(k, k + 7));
        }).not.toThrow();
      }
    }
  });
});
