/**
 * Type widening and compatibility (ES ql DataTypeConverter.commonType, sql
 * SqlDataTypeConverter.commonType, SqlDataTypes.areCompatible): the result type of conditionals and
 * arithmetic, and what CASE/COALESCE/IN accept side by side.
 */
import {
  DATA_TYPES,
  isDateBased,
  isInterval,
  isNumeric,
  isString,
  isYearMonthInterval,
  type DataTypeName,
} from '../../functions/data-types.js';
import { compatibleInterval } from '../../functions/intervals.js';

/** ql DataTypeConverter.commonType. */
export function qlCommonType(left: DataTypeName, right: DataTypeName): DataTypeName | null {
  if (left === right) return left;
  if (left === 'NULL') return right;
  if (right === 'NULL') return left;
  if (isString(left) && isString(right)) {
    if (left === 'TEXT' || right === 'TEXT') return 'TEXT';
    if (left === 'KEYWORD') return 'KEYWORD';
    return right;
  }
  if (isNumeric(left) && isNumeric(right)) {
    const l = DATA_TYPES[left];
    const r = DATA_TYPES[right];
    if (l.isInteger) {
      if (r.isInteger) return l.size > r.size ? left : right;
      return right;
    }
    if (r.isInteger) return left;
    return l.size > r.size ? left : right;
  }
  if (isString(left) && isNumeric(right)) return right;
  if (isString(right) && isNumeric(left)) return left;
  return null;
}

/** sql SqlDataTypeConverter.commonType: adds dates, times and intervals. */
export function commonType(left: DataTypeName, right: DataTypeName): DataTypeName | null {
  const common = qlCommonType(left, right);
  if (common !== null) return common;
  if (left === 'DATE') return isYearMonthInterval(right) ? left : 'DATETIME';
  if (right === 'DATE') return isYearMonthInterval(left) ? right : 'DATETIME';
  if (left === 'TIME' && isInterval(right)) return left;
  if (right === 'TIME' && isInterval(left)) return right;
  if (left === 'DATETIME' && (right === 'TIME' || isInterval(right))) return left;
  if (right === 'DATETIME' && (left === 'TIME' || isInterval(left))) return right;
  if (isInterval(left) && DATA_TYPES[right].isInteger) return left;
  if (isInterval(right) && DATA_TYPES[left].isInteger) return right;
  if (isInterval(left) && isInterval(right)) return compatibleInterval(left, right);
  return null;
}

/** SqlDataTypes.areCompatible. */
export function areCompatible(left: DataTypeName, right: DataTypeName): boolean {
  if (left === right) return true;
  return (
    left === 'NULL' ||
    right === 'NULL' ||
    (isString(left) && isString(right)) ||
    (isNumeric(left) && isNumeric(right)) ||
    (isDateBased(left) && isDateBased(right)) ||
    (isInterval(left) && isInterval(right) && compatibleInterval(left, right) !== null)
  );
}
