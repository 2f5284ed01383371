/** Byte sizes in settings (`100mb`, `1gb`, `512kb`, `10b`, plain numbers = bytes). */
const UNITS: Record<string, number> = {
  b: 1,
  k: 1024,
  kb: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  p: 1024 ** 5,
  pb: 1024 ** 5,
};

export function parseByteSizeSimple(s: string, setting: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(s);
  const unit = m?.[2]?.toLowerCase() ?? '';
  const mul = unit === '' ? 1 : UNITS[unit];
  if (!m || mul === undefined) {
    throw new Error(
      `failed to parse setting [${setting}] with value [${s}] as a size in bytes: unit is missing or unrecognized`,
    );
  }
  return Math.floor(Number(m[1]) * mul);
}
