/**
 * Display names of time zones for the Joda `z`/`zzzz` pattern letters. Joda (with the JDK COMPAT
 * locale data ES 6.8 runs with) prints abbreviations such as "CET"/"CEST"/"EST"; ICU's en-US data
 * has them for American zones and en-GB for European ones, so both are consulted.
 */

import type { TimeZone } from './zone-base.js';

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function fmt(id: string, locale: string, style: 'short' | 'long'): Intl.DateTimeFormat | null {
  const key = `${id}|${locale}|${style}`;
  let f = formatters.get(key);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat(locale, { timeZone: id, timeZoneName: style });
    } catch {
      f = null;
    }
    formatters.set(key, f);
  }
  return f;
}

function nameOf(f: Intl.DateTimeFormat | null, utc: number): string | null {
  if (!f) return null;
  const part = f.formatToParts(utc).find((p) => p.type === 'timeZoneName');
  return part ? part.value : null;
}

const isGmtForm = (s: string | null) => s === null || /^(GMT|UTC)[+-−]/.test(s);

/** Short name: fixed offset zones print their id, region zones an abbreviation when known. */
export function zoneShortName(zone: TimeZone, utc: number): string {
  if (zone.fixed) return zone.id;
  let name = nameOf(fmt(zone.id, 'en-US', 'short'), utc);
  if (isGmtForm(name)) {
    const gb = nameOf(fmt(zone.id, 'en-GB', 'short'), utc);
    if (!isGmtForm(gb)) name = gb;
  }
  return (name ?? zone.id).replace('−', '-');
}

export function zoneLongName(zone: TimeZone, utc: number): string {
  if (zone.fixed) return zone.id === 'UTC' ? 'Coordinated Universal Time' : zone.id;
  return (nameOf(fmt(zone.id, 'en-US', 'long'), utc) ?? zone.id).replace('−', '-');
}
