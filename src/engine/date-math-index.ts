/**
 * Date math in index names (ES IndexNameExpressionResolver.DateMathExpressionResolver):
 * `<logstash-{now/d}>`, `<logs-{now/M{yyyy.MM}}>`, `<x-{now{yyyy.MM.dd|+01:00}}>`; `\` escapes
 * braces. The default format is `8uuuu.MM.dd` in UTC.
 */
import { EsError } from '../common/errors.js';
import { dateFormatter, parseDateMath, timeZone, UTC } from '../common/dates/index.js';

const parseError = (reason: string) => new EsError('parse_exception', reason, 400);

export function resolveDateMathExpression(expression: string, now: number): string {
  if (!expression.startsWith('<') || !expression.endsWith('>')) return expression;
  const text = expression.slice(1, -1);
  let escape = false;
  let inDateFormat = false;
  let inPlaceHolder = false;
  let out = '';
  let ph = '';
  for (let i = 0; i < text.length; i++) {
    const escaped = escape;
    escape = false;
    const c = text[i]!;
    if (c === '\\') {
      if (escaped) out += c;
      else escape = true;
      continue;
    }
    if (inPlaceHolder) {
      if (c === '{') {
        if (inDateFormat && escaped) ph += c;
        else if (!inDateFormat) {
          inDateFormat = true;
          ph += c;
        } else
          throw parseError(
            `invalid dynamic name expression [${text}]. invalid character in placeholder at position [${i + 1}]`,
          );
      } else if (c === '}') {
        if (inDateFormat && escaped) ph += c;
        else if (inDateFormat) {
          inDateFormat = false;
          ph += c;
        } else {
          out += placeholder(ph, now);
          ph = '';
          inPlaceHolder = false;
        }
      } else ph += c;
      continue;
    }
    if (c === '{' && !escaped) inPlaceHolder = true;
    else if (c === '}' && !escaped)
      throw parseError(
        `invalid dynamic name expression [${text}]. invalid character at position [${i + 1}]. \`{\` and \`}\` are reserved characters and should be escaped when used as part of the index name using \`\\\` (e.g. \`\\{text\\}\`)`,
      );
    else out += c;
  }
  if (inPlaceHolder)
    throw parseError(
      `invalid dynamic name expression [${text}]. date math placeholder is open ended`,
    );
  if (out.length === 0) throw parseError('nothing captured');
  return out;
}

function placeholder(ph: string, now: number): string {
  const lb = ph.indexOf('{');
  let math = ph;
  let pattern = '8uuuu.MM.dd';
  let zone = UTC;
  if (lb >= 0) {
    if (ph.lastIndexOf('}') !== ph.length - 1)
      throw parseError(
        `invalid dynamic name expression [${ph}]. missing closing \`}\` for date math format`,
      );
    if (lb === ph.length - 2)
      throw parseError(`invalid dynamic name expression [${ph}]. missing date format`);
    math = ph.slice(0, lb);
    const fz = ph.slice(lb + 1, -1);
    const sep = fz.indexOf('|');
    if (sep >= 0) {
      pattern = fz.slice(0, sep);
      zone = timeZone(fz.slice(sep + 1));
    } else pattern = fz;
  }
  const formatter = dateFormatter(pattern);
  const millis = parseDateMath(math, () => now, false, zone, formatter);
  return formatter.format(millis, zone);
}
