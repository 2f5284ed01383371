/**
 * Joda's wording for parse failures (FormatUtils.createErrorMessage), shared by the formatters
 * and by the zone offset parser of DateTimeZone.forID.
 */

/** Joda FormatUtils.createErrorMessage (the reason of a failed DateTimeFormatter.parseMillis). */
export function jodaFormatError(text: string, errorPos: number): string {
  const sampleLen = errorPos + 32;
  const sample = text.length <= sampleLen + 3 ? text : text.slice(0, sampleLen) + '...';
  if (errorPos <= 0) return `Invalid format: "${sample}"`;
  if (errorPos >= text.length) return `Invalid format: "${sample}" is too short`;
  return `Invalid format: "${sample}" is malformed at "${sample.slice(errorPos)}"`;
}
