/**
 * Which day starts a week and how many days of the new year its first week needs (java.util
 * WeekFields per locale, as the JDK COMPAT locale data ES 6.8 runs with gives them): Sunday and 1
 * for Locale.ROOT, languages without a region and most regions; Monday and 4 (the ISO rule) for
 * the European regions.
 */

export interface WeekRule {
  /** ISO day number the week starts on: 1 = Monday .. 7 = Sunday. */
  readonly firstDay: number;
  /** Days of January the first week of a week-based year must hold. */
  readonly minimalDays: number;
}

export const SUNDAY_1: WeekRule = { firstDay: 7, minimalDays: 1 };
export const ISO_WEEKS: WeekRule = { firstDay: 1, minimalDays: 4 };

const ISO_REGIONS = new Set(
  'AD AT AX BE CH CZ DE DK EE ES FI FO FR GB GG GI HU IE IM IS IT JE LI LT LU MC NL NO PL PT SE SJ SK SM VA'.split(
    ' ',
  ),
);

/** The week rule of a locale tag ("en-GB", "en_GB", "de", "ROOT"); by its region. */
export function weekRule(locale: string | undefined): WeekRule {
  const region = locale?.split(/[-_]/)[1]?.toUpperCase();
  return region !== undefined && ISO_REGIONS.has(region) ? ISO_WEEKS : SUNDAY_1;
}
