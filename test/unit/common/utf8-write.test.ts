import { describe, expect, it } from 'vitest';
import { utf8Length, writeUtf8 } from '../../../src/common/utf8-write.js';
import { docKey, idFromKey } from '../../../src/store/doc-record.js';

const samples = [
  '',
  'AbCdEfGhIjKlMnOpQrSt',
  'é',
  'ascii then é',
  'ルート',
  '🚀 rocket',
  'a'.repeat(64),
  'a'.repeat(63) + 'ü',
  'b'.repeat(200) + '日本',
  '\u0000\u007f',
  'lone \ud800 surrogate',
];

describe('writeUtf8', () => {
  it('writes what Buffer#write writes, and says how many bytes', () => {
    for (const s of samples) {
      const buf = Buffer.alloc(s.length * 3 + 4, 0xaa);
      const n = writeUtf8(buf, s, 2);
      expect(n).toBe(Buffer.byteLength(s));
      expect(buf.subarray(2, 2 + n)).toEqual(Buffer.from(s, 'utf8'));
      expect(buf[0]).toBe(0xaa);
      expect(utf8Length(s)).toBe(Buffer.byteLength(s));
    }
  });

  it('gives document keys with the shard in big endian before the id', () => {
    for (const s of samples) {
      const k = docKey(300, s);
      expect(k.readUInt16BE(0)).toBe(300);
      expect(idFromKey(k)).toBe(Buffer.from(s, 'utf8').toString('utf8'));
      expect(k.length).toBe(2 + Buffer.byteLength(s));
    }
  });
});
