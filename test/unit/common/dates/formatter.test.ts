// Facts from ES 6.8 JavaJodaTimeDuellingTests (inputs each format accepts/rejects with Joda),
// JodaTests/SimpleJodaTests, and the REST test search/180_local_dependent_mapping.yml.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DATE_FORMAT,
  UTC,
  dateFormatter,
  namedFormatNames,
  timeZone,
} from '../../../../src/common/dates/index.js';
import { EsError } from '../../../../src/common/errors.js';
import { genericJodaFormatter } from '../../../../src/common/dates/formatter.js';

const ACCEPTED: [string, string][] = [
  ['2001-01-01T00:00:00Z', 'date_time_no_millis'],
  ['2001-01-01T00:00:00-0800', 'date_time_no_millis'],
  ['2001-01-01T00:00:00+1030', 'date_time_no_millis'],
  ['2001-01-01T00:00:00-08', 'date_time_no_millis'],
  ['2001-01-01T00:00:00+10:30', 'date_time_no_millis'],
  ['2010 12 06 11:05:15', 'yyyy dd MM HH:mm:ss'],
  ['12/06', 'dd/MM'],
  ['Nov 24 01:29:01 -0800', 'MMM dd HH:mm:ss Z'],
  ['1522332219', 'epoch_second'],
  ['0', 'epoch_second'],
  ['1', 'epoch_second'],
  ['1522332219321', 'epoch_millis'],
  ['0', 'epoch_millis'],
  ['1', 'epoch_millis'],
  ['20181126', 'basic_date'],
  ['20181126T121212.123Z', 'basic_date_time'],
  ['20181126T121212.123+10:00', 'basic_date_time'],
  ['20181126T121212.123-0800', 'basic_date_time'],
  ['20181126T121212Z', 'basic_date_time_no_millis'],
  ['20181126T121212+01:00', 'basic_date_time_no_millis'],
  ['20181126T121212+0100', 'basic_date_time_no_millis'],
  ['2018363', 'basic_ordinal_date'],
  ['2018363T121212.1Z', 'basic_ordinal_date_time'],
  ['2018363T121212.123Z', 'basic_ordinal_date_time'],
  ['2018363T121212.123456789Z', 'basic_ordinal_date_time'],
  ['2018363T121212.123+0100', 'basic_ordinal_date_time'],
  ['2018363T121212.123+01:00', 'basic_ordinal_date_time'],
  ['2018363T121212Z', 'basic_ordinal_date_time_no_millis'],
  ['2018363T121212+0100', 'basic_ordinal_date_time_no_millis'],
  ['2018363T121212+01:00', 'basic_ordinal_date_time_no_millis'],
  ['121212.1Z', 'basic_time'],
  ['121212.123Z', 'basic_time'],
  ['121212.123456789Z', 'basic_time'],
  ['121212.1+0100', 'basic_time'],
  ['121212.123+0100', 'basic_time'],
  ['121212.123+01:00', 'basic_time'],
  ['121212Z', 'basic_time_no_millis'],
  ['121212+0100', 'basic_time_no_millis'],
  ['121212+01:00', 'basic_time_no_millis'],
  ['T121212.1Z', 'basic_t_time'],
  ['T121212.123Z', 'basic_t_time'],
  ['T121212.123456789Z', 'basic_t_time'],
  ['T121212.1+0100', 'basic_t_time'],
  ['T121212.123+0100', 'basic_t_time'],
  ['T121212.123+01:00', 'basic_t_time'],
  ['T121212Z', 'basic_t_time_no_millis'],
  ['T121212+0100', 'basic_t_time_no_millis'],
  ['T121212+01:00', 'basic_t_time_no_millis'],
  ['2018W313', 'basic_week_date'],
  ['1W313', 'basic_week_date'],
  ['18W313', 'basic_week_date'],
  ['2018W313T121212.1Z', 'basic_week_date_time'],
  ['2018W313T121212.123Z', 'basic_week_date_time'],
  ['2018W313T121212.123456789Z', 'basic_week_date_time'],
  ['2018W313T121212.123+0100', 'basic_week_date_time'],
  ['2018W313T121212.123+01:00', 'basic_week_date_time'],
  ['2018W313T121212Z', 'basic_week_date_time_no_millis'],
  ['2018W313T121212+0100', 'basic_week_date_time_no_millis'],
  ['2018W313T121212+01:00', 'basic_week_date_time_no_millis'],
  ['2018-12-31', 'date'],
  ['18-5-6', 'date'],
  ['10000-5-6', 'date'],
  ['2018-12-31T12', 'date_hour'],
  ['2018-12-31T8', 'date_hour'],
  ['2018-12-31T12:12', 'date_hour_minute'],
  ['2018-12-31T8:3', 'date_hour_minute'],
  ['2018-12-31T12:12:12', 'date_hour_minute_second'],
  ['2018-12-31T12:12:1', 'date_hour_minute_second'],
  ['2018-12-31T12:12:12.1', 'date_hour_minute_second_fraction'],
  ['2018-12-31T12:12:12.123', 'date_hour_minute_second_fraction'],
  ['2018-12-31T12:12:12.123456789', 'date_hour_minute_second_fraction'],
  ['2018-12-31T12:12:12.1', 'date_hour_minute_second_millis'],
  ['2018-12-31T12:12:12.123', 'date_hour_minute_second_millis'],
  ['2018-12-31T12:12:12.1', 'date_hour_minute_second_millis'],
  ['2018-12-31T12:12:12.1', 'date_hour_minute_second_fraction'],
  ['2018-05', 'date_optional_time'],
  ['2018-05-30', 'date_optional_time'],
  ['2018-05-30T20', 'date_optional_time'],
  ['2018-05-30T20:21', 'date_optional_time'],
  ['2018-05-30T20:21:23', 'date_optional_time'],
  ['2018-05-30T20:21:23.1', 'date_optional_time'],
  ['2018-05-30T20:21:23.123', 'date_optional_time'],
  ['2018-05-30T20:21:23.123456789', 'date_optional_time'],
  ['2018-05-30T20:21:23.123Z', 'date_optional_time'],
  ['2018-05-30T20:21:23.123456789Z', 'date_optional_time'],
  ['2018-05-30T20:21:23.1+0100', 'date_optional_time'],
  ['2018-05-30T20:21:23.123+0100', 'date_optional_time'],
  ['2018-05-30T20:21:23.1+01:00', 'date_optional_time'],
  ['2018-05-30T20:21:23.123+01:00', 'date_optional_time'],
  ['2018-12-1', 'date_optional_time'],
  ['2018-12-31T10:15:30', 'date_optional_time'],
  ['2018-12-31T10:15:3', 'date_optional_time'],
  ['2018-12-31T10:5:30', 'date_optional_time'],
  ['2018-12-31T1:15:30', 'date_optional_time'],
  ['2018-12-31T10:15:30.1Z', 'date_time'],
  ['2018-12-31T10:15:30.123Z', 'date_time'],
  ['2018-12-31T10:15:30.123456789Z', 'date_time'],
  ['2018-12-31T10:15:30.1+0100', 'date_time'],
  ['2018-12-31T10:15:30.123+0100', 'date_time'],
  ['2018-12-31T10:15:30.123+01:00', 'date_time'],
  ['2018-12-31T10:15:30.1+01:00', 'date_time'],
  ['2018-12-31T10:15:30.11Z', 'date_time'],
  ['2018-12-31T10:15:30.11+0100', 'date_time'],
  ['2018-12-31T10:15:30.11+01:00', 'date_time'],
  ['2018-12-31T10:15:3.1Z', 'date_time'],
  ['2018-12-31T10:15:3.123Z', 'date_time'],
  ['2018-12-31T10:15:3.123456789Z', 'date_time'],
  ['2018-12-31T10:15:3.1+0100', 'date_time'],
  ['2018-12-31T10:15:3.123+0100', 'date_time'],
  ['2018-12-31T10:15:3.123+01:00', 'date_time'],
  ['2018-12-31T10:15:3.1+01:00', 'date_time'],
  ['2018-12-31T10:15:30Z', 'date_time_no_millis'],
  ['2018-12-31T10:15:30+0100', 'date_time_no_millis'],
  ['2018-12-31T10:15:30+01:00', 'date_time_no_millis'],
  ['2018-12-31T10:5:30Z', 'date_time_no_millis'],
  ['2018-12-31T10:5:30+0100', 'date_time_no_millis'],
  ['2018-12-31T10:5:30+01:00', 'date_time_no_millis'],
  ['2018-12-31T10:15:3Z', 'date_time_no_millis'],
  ['2018-12-31T10:15:3+0100', 'date_time_no_millis'],
  ['2018-12-31T10:15:3+01:00', 'date_time_no_millis'],
  ['2018-12-31T1:15:30Z', 'date_time_no_millis'],
  ['2018-12-31T1:15:30+0100', 'date_time_no_millis'],
  ['2018-12-31T1:15:30+01:00', 'date_time_no_millis'],
  ['12', 'hour'],
  ['01', 'hour'],
  ['1', 'hour'],
  ['12:12', 'hour_minute'],
  ['12:01', 'hour_minute'],
  ['12:1', 'hour_minute'],
  ['12:12:12', 'hour_minute_second'],
  ['12:12:01', 'hour_minute_second'],
  ['12:12:1', 'hour_minute_second'],
  ['12:12:12.123', 'hour_minute_second_fraction'],
  ['12:12:12.123456789', 'hour_minute_second_fraction'],
  ['12:12:12.1', 'hour_minute_second_fraction'],
  ['12:12:12.123', 'hour_minute_second_millis'],
  ['12:12:12.1', 'hour_minute_second_millis'],
  ['2018-128', 'ordinal_date'],
  ['2018-1', 'ordinal_date'],
  ['2018-128T10:15:30.1Z', 'ordinal_date_time'],
  ['2018-128T10:15:30.123Z', 'ordinal_date_time'],
  ['2018-128T10:15:30.123456789Z', 'ordinal_date_time'],
  ['2018-128T10:15:30.123+0100', 'ordinal_date_time'],
  ['2018-128T10:15:30.123+01:00', 'ordinal_date_time'],
  ['2018-1T10:15:30.1Z', 'ordinal_date_time'],
  ['2018-1T10:15:30.123Z', 'ordinal_date_time'],
  ['2018-1T10:15:30.123456789Z', 'ordinal_date_time'],
  ['2018-1T10:15:30.123+0100', 'ordinal_date_time'],
  ['2018-1T10:15:30.123+01:00', 'ordinal_date_time'],
  ['2018-128T10:15:30Z', 'ordinal_date_time_no_millis'],
  ['2018-128T10:15:30+0100', 'ordinal_date_time_no_millis'],
  ['2018-128T10:15:30+01:00', 'ordinal_date_time_no_millis'],
  ['2018-1T10:15:30Z', 'ordinal_date_time_no_millis'],
  ['2018-1T10:15:30+0100', 'ordinal_date_time_no_millis'],
  ['2018-1T10:15:30+01:00', 'ordinal_date_time_no_millis'],
  ['10:15:30.1Z', 'time'],
  ['10:15:30.123Z', 'time'],
  ['10:15:30.123456789Z', 'time'],
  ['10:15:30.123+0100', 'time'],
  ['10:15:30.123+01:00', 'time'],
  ['1:15:30.1Z', 'time'],
  ['1:15:30.123Z', 'time'],
  ['1:15:30.123+0100', 'time'],
  ['1:15:30.123+01:00', 'time'],
  ['10:1:30.1Z', 'time'],
  ['10:1:30.123Z', 'time'],
  ['10:1:30.123+0100', 'time'],
  ['10:1:30.123+01:00', 'time'],
  ['10:15:3.1Z', 'time'],
  ['10:15:3.123Z', 'time'],
  ['10:15:3.123+0100', 'time'],
  ['10:15:3.123+01:00', 'time'],
  ['10:15:30Z', 'time_no_millis'],
  ['10:15:30+0100', 'time_no_millis'],
  ['10:15:30+01:00', 'time_no_millis'],
  ['01:15:30Z', 'time_no_millis'],
  ['01:15:30+0100', 'time_no_millis'],
  ['01:15:30+01:00', 'time_no_millis'],
  ['1:15:30Z', 'time_no_millis'],
  ['1:15:30+0100', 'time_no_millis'],
  ['1:15:30+01:00', 'time_no_millis'],
  ['10:5:30Z', 'time_no_millis'],
  ['10:5:30+0100', 'time_no_millis'],
  ['10:5:30+01:00', 'time_no_millis'],
  ['10:15:3Z', 'time_no_millis'],
  ['10:15:3+0100', 'time_no_millis'],
  ['10:15:3+01:00', 'time_no_millis'],
  ['T10:15:30.1Z', 't_time'],
  ['T10:15:30.123Z', 't_time'],
  ['T10:15:30.123456789Z', 't_time'],
  ['T10:15:30.1+0100', 't_time'],
  ['T10:15:30.123+0100', 't_time'],
  ['T10:15:30.123+01:00', 't_time'],
  ['T10:15:30.1+01:00', 't_time'],
  ['T1:15:30.123Z', 't_time'],
  ['T1:15:30.123+0100', 't_time'],
  ['T1:15:30.123+01:00', 't_time'],
  ['T10:1:30.123Z', 't_time'],
  ['T10:1:30.123+0100', 't_time'],
  ['T10:1:30.123+01:00', 't_time'],
  ['T10:15:3.123Z', 't_time'],
  ['T10:15:3.123+0100', 't_time'],
  ['T10:15:3.123+01:00', 't_time'],
  ['T10:15:30Z', 't_time_no_millis'],
  ['T10:15:30+0100', 't_time_no_millis'],
  ['T10:15:30+01:00', 't_time_no_millis'],
  ['T1:15:30Z', 't_time_no_millis'],
  ['T1:15:30+0100', 't_time_no_millis'],
  ['T1:15:30+01:00', 't_time_no_millis'],
  ['T10:1:30Z', 't_time_no_millis'],
  ['T10:1:30+0100', 't_time_no_millis'],
  ['T10:1:30+01:00', 't_time_no_millis'],
  ['T10:15:3Z', 't_time_no_millis'],
  ['T10:15:3+0100', 't_time_no_millis'],
  ['T10:15:3+01:00', 't_time_no_millis'],
  ['2012-W48-6', 'week_date'],
  ['2012-W01-6', 'week_date'],
  ['2012-W1-6', 'week_date'],
  ['2012-W48-6T10:15:30.1Z', 'week_date_time'],
  ['2012-W48-6T10:15:30.123Z', 'week_date_time'],
  ['2012-W48-6T10:15:30.123456789Z', 'week_date_time'],
  ['2012-W48-6T10:15:30.1+0100', 'week_date_time'],
  ['2012-W48-6T10:15:30.123+0100', 'week_date_time'],
  ['2012-W48-6T10:15:30.1+01:00', 'week_date_time'],
  ['2012-W48-6T10:15:30.123+01:00', 'week_date_time'],
  ['2012-W1-6T10:15:30.1Z', 'week_date_time'],
  ['2012-W1-6T10:15:30.123Z', 'week_date_time'],
  ['2012-W1-6T10:15:30.1+0100', 'week_date_time'],
  ['2012-W1-6T10:15:30.123+0100', 'week_date_time'],
  ['2012-W1-6T10:15:30.1+01:00', 'week_date_time'],
  ['2012-W1-6T10:15:30.123+01:00', 'week_date_time'],
  ['2012-W48-6T10:15:30Z', 'week_date_time_no_millis'],
  ['2012-W48-6T10:15:30+0100', 'week_date_time_no_millis'],
  ['2012-W48-6T10:15:30+01:00', 'week_date_time_no_millis'],
  ['2012-W1-6T10:15:30Z', 'week_date_time_no_millis'],
  ['2012-W1-6T10:15:30+0100', 'week_date_time_no_millis'],
  ['2012-W1-6T10:15:30+01:00', 'week_date_time_no_millis'],
  ['2012', 'year'],
  ['1', 'year'],
  ['-2000', 'year'],
  ['2012-12', 'yearMonth'],
  ['1-1', 'yearMonth'],
  ['2012-12-31', 'yearMonthDay'],
  ['1-12-31', 'yearMonthDay'],
  ['2012-1-31', 'yearMonthDay'],
  ['2012-12-1', 'yearMonthDay'],
  ['2018', 'week_year'],
  ['1', 'week_year'],
  ['2017', 'week_year'],
  ['2018-W29', 'weekyear_week'],
  ['2018-W1', 'weekyear_week'],
  ['2012-W31-5', 'weekyear_week_day'],
  ['2012-W1-1', 'weekyear_week_day'],
  ['2014-06-06T12:01:02.123', "yyyy-MM-dd'T'HH:mm:ss||yyyy-MM-dd'T'HH:mm:ss.SSS"],
  ['2014-06-06T12:01:02.123', "strictDateTimeNoMillis||yyyy-MM-dd'T'HH:mm:ss.SSS"],
  ['2014-06-06T12:01:02.123', "yyyy-MM-dd'T'HH:mm:ss+HH:MM||yyyy-MM-dd'T'HH:mm:ss.SSS"],
  ['2018W313', 'strict_basic_week_date'],
  ['2018W313T121212.1Z', 'strict_basic_week_date_time'],
  ['2018W313T121212.123Z', 'strict_basic_week_date_time'],
  ['2018W313T121212.123456789Z', 'strict_basic_week_date_time'],
  ['2018W313T121212.1+0100', 'strict_basic_week_date_time'],
  ['2018W313T121212.123+0100', 'strict_basic_week_date_time'],
  ['2018W313T121212.1+01:00', 'strict_basic_week_date_time'],
  ['2018W313T121212.123+01:00', 'strict_basic_week_date_time'],
  ['2018W313T121212Z', 'strict_basic_week_date_time_no_millis'],
  ['2018W313T121212+0100', 'strict_basic_week_date_time_no_millis'],
  ['2018W313T121212+01:00', 'strict_basic_week_date_time_no_millis'],
  ['2018-12-31', 'strict_date'],
  ['2018-12-31T12', 'strict_date_hour'],
  ['2018-12-31T12:12', 'strict_date_hour_minute'],
  ['2018-12-31T12:12:12', 'strict_date_hour_minute_second'],
  ['2018-12-31T12:12:12.1', 'strict_date_hour_minute_second_fraction'],
  ['2018-12-31T12:12:12.123', 'strict_date_hour_minute_second_fraction'],
  ['2018-12-31T12:12:12.123456789', 'strict_date_hour_minute_second_fraction'],
  ['2018-12-31T12:12:12.123', 'strict_date_hour_minute_second_millis'],
  ['2018-12-31T12:12:12.1', 'strict_date_hour_minute_second_millis'],
  ['2018-12-31T12:12:12.1', 'strict_date_hour_minute_second_fraction'],
  ['2018-12-31', 'strict_date_optional_time'],
  ['2018-12-31T10:15:30', 'strict_date_optional_time'],
  ['2018-12-31T10:15:30Z', 'strict_date_optional_time'],
  ['2018-12-31T10:15:30+0100', 'strict_date_optional_time'],
  ['2018-12-31T10:15:30+01:00', 'strict_date_optional_time'],
  ['2018-12-31T10:15:30.1Z', 'strict_date_time'],
  ['2018-12-31T10:15:30.123Z', 'strict_date_time'],
  ['2018-12-31T10:15:30.123456789Z', 'strict_date_time'],
  ['2018-12-31T10:15:30.1+0100', 'strict_date_time'],
  ['2018-12-31T10:15:30.123+0100', 'strict_date_time'],
  ['2018-12-31T10:15:30.1+01:00', 'strict_date_time'],
  ['2018-12-31T10:15:30.123+01:00', 'strict_date_time'],
  ['2018-12-31T10:15:30.11Z', 'strict_date_time'],
  ['2018-12-31T10:15:30.11+0100', 'strict_date_time'],
  ['2018-12-31T10:15:30.11+01:00', 'strict_date_time'],
  ['2018-12-31T10:15:30Z', 'strict_date_time_no_millis'],
  ['2018-12-31T10:15:30+0100', 'strict_date_time_no_millis'],
  ['2018-12-31T10:15:30+01:00', 'strict_date_time_no_millis'],
  ['12', 'strict_hour'],
  ['01', 'strict_hour'],
  ['12:12', 'strict_hour_minute'],
  ['12:01', 'strict_hour_minute'],
  ['12:12:12', 'strict_hour_minute_second'],
  ['12:12:01', 'strict_hour_minute_second'],
  ['12:12:12.123', 'strict_hour_minute_second_fraction'],
  ['12:12:12.123456789', 'strict_hour_minute_second_fraction'],
  ['12:12:12.1', 'strict_hour_minute_second_fraction'],
  ['12:12:12.123', 'strict_hour_minute_second_millis'],
  ['12:12:12.1', 'strict_hour_minute_second_millis'],
  ['2018-128', 'strict_ordinal_date'],
  ['2018-128T10:15:30.1Z', 'strict_ordinal_date_time'],
  ['2018-128T10:15:30.123Z', 'strict_ordinal_date_time'],
  ['2018-128T10:15:30.123456789Z', 'strict_ordinal_date_time'],
  ['2018-128T10:15:30.1+0100', 'strict_ordinal_date_time'],
  ['2018-128T10:15:30.123+0100', 'strict_ordinal_date_time'],
  ['2018-128T10:15:30.1+01:00', 'strict_ordinal_date_time'],
  ['2018-128T10:15:30.123+01:00', 'strict_ordinal_date_time'],
  ['2018-128T10:15:30Z', 'strict_ordinal_date_time_no_millis'],
  ['2018-128T10:15:30+0100', 'strict_ordinal_date_time_no_millis'],
  ['2018-128T10:15:30+01:00', 'strict_ordinal_date_time_no_millis'],
  ['10:15:30.1Z', 'strict_time'],
  ['10:15:30.123Z', 'strict_time'],
  ['10:15:30.123456789Z', 'strict_time'],
  ['10:15:30.123+0100', 'strict_time'],
  ['10:15:30.123+01:00', 'strict_time'],
  ['10:15:30Z', 'strict_time_no_millis'],
  ['10:15:30+0100', 'strict_time_no_millis'],
  ['10:15:30+01:00', 'strict_time_no_millis'],
  ['01:15:30Z', 'strict_time_no_millis'],
  ['01:15:30+0100', 'strict_time_no_millis'],
  ['01:15:30+01:00', 'strict_time_no_millis'],
  ['T10:15:30.1Z', 'strict_t_time'],
  ['T10:15:30.123Z', 'strict_t_time'],
  ['T10:15:30.123456789Z', 'strict_t_time'],
  ['T10:15:30.1+0100', 'strict_t_time'],
  ['T10:15:30.123+0100', 'strict_t_time'],
  ['T10:15:30.1+01:00', 'strict_t_time'],
  ['T10:15:30.123+01:00', 'strict_t_time'],
  ['T10:15:30Z', 'strict_t_time_no_millis'],
  ['T10:15:30+0100', 'strict_t_time_no_millis'],
  ['T10:15:30+01:00', 'strict_t_time_no_millis'],
  ['2012-W48-6', 'strict_week_date'],
  ['2012-W01-6', 'strict_week_date'],
  ['2012-W48-6', 'strict_week_date'],
  ['2012-W01-6', 'strict_week_date'],
  ['2012-W48-6T10:15:30.1Z', 'strict_week_date_time'],
  ['2012-W48-6T10:15:30.123Z', 'strict_week_date_time'],
  ['2012-W48-6T10:15:30.123456789Z', 'strict_week_date_time'],
  ['2012-W48-6T10:15:30.1+0100', 'strict_week_date_time'],
  ['2012-W48-6T10:15:30.123+0100', 'strict_week_date_time'],
  ['2012-W48-6T10:15:30.1+01:00', 'strict_week_date_time'],
  ['2012-W48-6T10:15:30.123+01:00', 'strict_week_date_time'],
  ['2012-W48-6T10:15:30Z', 'strict_week_date_time_no_millis'],
  ['2012-W48-6T10:15:30+0100', 'strict_week_date_time_no_millis'],
  ['2012-W48-6T10:15:30+01:00', 'strict_week_date_time_no_millis'],
  ['2012', 'strict_year'],
  ['-2000', 'strict_year'],
  ['2012-12', 'strict_year_month'],
  ['2012-12-31', 'strict_year_month_day'],
  ['2018', 'strict_weekyear'],
  ['2018', 'strict_weekyear'],
  ['2017', 'strict_weekyear'],
  ['2018-W29', 'strict_weekyear_week'],
  ['2018-W01', 'strict_weekyear_week'],
  ['2012-W31-5', 'strict_weekyear_week_day'],
];
const REJECTED: [string, string][] = [
  ['2018-12-31T12:12:12.123456789', 'date_hour_minute_second_millis'],
  ['12:12:12', 'hour_minute_second_fraction'],
  ['12:12:12.123456789', 'hour_minute_second_millis'],
  ['12:12:12', 'hour_minute_second_millis'],
  ['10:15:3.1', 'time'],
  ['10:15:3Z', 'time'],
  ['10:15:3', 'time_no_millis'],
  ['T10:15:3.1', 't_time'],
  ['T10:15:3Z', 't_time'],
  ['T10:15:3', 't_time_no_millis'],
  ['2014-06-06T12:01:02.123', "yyyy-MM-dd'T'HH:mm:ss||yyyy-MM-dd'T'HH:mm:ss.SS"],
  ['18W313', 'strict_basic_week_date'],
  ['2018W313T12128.123Z', 'strict_basic_week_date_time'],
  ['2018W313T12128.123456789Z', 'strict_basic_week_date_time'],
  ['2018W313T81212.123Z', 'strict_basic_week_date_time'],
  ['2018W313T12812.123Z', 'strict_basic_week_date_time'],
  ['2018W313T12812.1Z', 'strict_basic_week_date_time'],
  ['2018W313T12128Z', 'strict_basic_week_date_time_no_millis'],
  ['2018W313T12128+0100', 'strict_basic_week_date_time_no_millis'],
  ['2018W313T12128+01:00', 'strict_basic_week_date_time_no_millis'],
  ['2018W313T81212Z', 'strict_basic_week_date_time_no_millis'],
  ['2018W313T81212+0100', 'strict_basic_week_date_time_no_millis'],
  ['2018W313T81212+01:00', 'strict_basic_week_date_time_no_millis'],
  ['2018W313T12812Z', 'strict_basic_week_date_time_no_millis'],
  ['2018W313T12812+0100', 'strict_basic_week_date_time_no_millis'],
  ['2018W313T12812+01:00', 'strict_basic_week_date_time_no_millis'],
  ['10000-12-31', 'strict_date'],
  ['2018-8-31', 'strict_date'],
  ['2018-12-31T8', 'strict_date_hour'],
  ['2018-12-31T8:3', 'strict_date_hour_minute'],
  ['2018-12-31T12:12:1', 'strict_date_hour_minute_second'],
  ['2018-12-31T12:12:12', 'strict_date_hour_minute_second_millis'],
  ['2018-12-31T12:12:12', 'strict_date_hour_minute_second_fraction'],
  ['2018-12-1', 'strict_date_optional_time'],
  ['2018-1-31', 'strict_date_optional_time'],
  ['10000-01-31', 'strict_date_optional_time'],
  ['2018-12-31T10:15:3', 'strict_date_optional_time'],
  ['2018-12-31T10:5:30', 'strict_date_optional_time'],
  ['2018-12-31T9:15:30', 'strict_date_optional_time'],
  ['2018-12-31T10:15:3.123Z', 'strict_date_time'],
  ['2018-12-31T10:5:30.123Z', 'strict_date_time'],
  ['2018-12-31T1:15:30.123Z', 'strict_date_time'],
  ['2018-12-31T10:5:30Z', 'strict_date_time_no_millis'],
  ['2018-12-31T10:15:3Z', 'strict_date_time_no_millis'],
  ['2018-12-31T1:15:30Z', 'strict_date_time_no_millis'],
  ['1', 'strict_hour'],
  ['12:1', 'strict_hour_minute'],
  ['12:12:1', 'strict_hour_minute_second'],
  ['12:12:12', 'strict_hour_minute_second_fraction'],
  ['12:12:12', 'strict_hour_minute_second_millis'],
  ['2018-1', 'strict_ordinal_date'],
  ['2018-1T10:15:30.123Z', 'strict_ordinal_date_time'],
  ['2018-1T10:15:30Z', 'strict_ordinal_date_time_no_millis'],
  ['1:15:30.123Z', 'strict_time'],
  ['10:1:30.123Z', 'strict_time'],
  ['10:15:3.123Z', 'strict_time'],
  ['10:15:3.1', 'strict_time'],
  ['10:15:3Z', 'strict_time'],
  ['1:15:30Z', 'strict_time_no_millis'],
  ['10:5:30Z', 'strict_time_no_millis'],
  ['10:15:3Z', 'strict_time_no_millis'],
  ['10:15:3', 'strict_time_no_millis'],
  ['T1:15:30.123Z', 'strict_t_time'],
  ['T10:1:30.123Z', 'strict_t_time'],
  ['T10:15:3.123Z', 'strict_t_time'],
  ['T10:15:3.1', 'strict_t_time'],
  ['T10:15:3Z', 'strict_t_time'],
  ['T1:15:30Z', 'strict_t_time_no_millis'],
  ['T10:1:30Z', 'strict_t_time_no_millis'],
  ['T10:15:3Z', 'strict_t_time_no_millis'],
  ['T10:15:3', 'strict_t_time_no_millis'],
  ['2012-W1-6', 'strict_week_date'],
  ['2012-W1-8', 'strict_week_date'],
  ['2012-W1-6', 'strict_week_date'],
  ['2012-W1-6T10:15:30.123Z', 'strict_week_date_time'],
  ['2012-W1-6T10:15:30Z', 'strict_week_date_time_no_millis'],
  ['1', 'strict_year'],
  ['1-1', 'strict_year_month'],
  ['1-12-31', 'strict_year_month_day'],
  ['2012-1-31', 'strict_year_month_day'],
  ['2012-12-1', 'strict_year_month_day'],
  ['1', 'strict_weekyear'],
  ['1', 'strict_weekyear'],
  ['2018-W1', 'strict_weekyear_week'],
  ['2012-W1-1', 'strict_weekyear_week_day'],
];

function reason(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(EsError);
    return (e as EsError).reason ?? '';
  }
  throw new Error('expected an error');
}

describe('named formats (Joda semantics)', () => {
  it('accept what Joda accepts', () => {
    for (const [input, format] of ACCEPTED) {
      expect(() => dateFormatter(format).parse(input), `${format} ${input}`).not.toThrow();
    }
  });

  it('reject what Joda rejects, with Joda wording', () => {
    for (const [input, format] of REJECTED) {
      expect(
        reason(() => dateFormatter(format).parse(input)),
        `${format} ${input}`,
      ).toMatch(new RegExp(`^Invalid format: "${input.replace(/[.+]/g, '\\$&')}`));
    }
    expect(reason(() => dateFormatter('week_date').parse('2012-W1-8'))).toBe(
      'Cannot parse "2012-W1-8": Value 8 for dayOfWeek must be in the range [1,7]',
    );
    expect(reason(() => dateFormatter('strict_week_date').parse('2012-W01-8'))).toBe(
      'Cannot parse "2012-W01-8": Value 8 for dayOfWeek must be in the range [1,7]',
    );
  });

  it('parse to the right instants', () => {
    const u = Date.UTC;
    const cases: [string, string, number][] = [
      ['2018-12-31', 'date', u(2018, 11, 31)],
      [
        '18-5-6',
        'date',
        u(18, 4, 6) - u(1900, 0, 1) + u(0, 0, 1) + (u(1918, 4, 6) - u(1918, 4, 6)),
      ],
      ['2018-05-30T20:21:23.123456789Z', 'date_optional_time', u(2018, 4, 30, 20, 21, 23, 123)],
      ['2018-05-30T20:21:23.1+01:00', 'date_optional_time', u(2018, 4, 30, 19, 21, 23, 100)],
      ['2018-12-31T1:15:30', 'date_optional_time', u(2018, 11, 31, 1, 15, 30)],
      ['2018-05-30T20.5', 'date_optional_time', u(2018, 4, 30, 20, 30)],
      ['2018-05-30T20:21,25', 'date_optional_time', u(2018, 4, 30, 20, 21, 15)],
      ['20181126T121212.123-0800', 'basic_date_time', u(2018, 10, 26, 20, 12, 12, 123)],
      ['2018363', 'basic_ordinal_date', u(2018, 11, 29)],
      ['2018W313', 'basic_week_date', u(2018, 7, 1)],
      ['2012-W48-6', 'week_date', u(2012, 11, 1)],
      ['2018-128', 'ordinal_date', u(2018, 4, 8)],
      ['12:12:12.1', 'hour_minute_second_fraction', u(1970, 0, 1, 12, 12, 12, 100)],
      ['T10:15:30+01:00', 't_time_no_millis', u(1970, 0, 1, 9, 15, 30)],
      ['-2000', 'year', u(-2000, 0, 1)],
      ['2018-W29', 'weekyear_week', u(2018, 6, 16)],
      ['2018', 'week_year', u(2018, 0, 1)],
      [
        '2014-06-06T12:01:02.123',
        "yyyy-MM-dd'T'HH:mm:ss||yyyy-MM-dd'T'HH:mm:ss.SSS",
        u(2014, 5, 6, 12, 1, 2, 123),
      ],
      ['2018-128', 'year_month_day||ordinal_date', u(2018, 4, 8)],
      ['1522332219', 'epoch_second', 1522332219000],
      ['1522332219321', 'epoch_millis', 1522332219321],
    ];
    // Date.UTC maps years 0..99 to 1900..1999, so year 18 is computed by hand
    const y18 = new Date(Date.UTC(2000, 4, 6));
    y18.setUTCFullYear(18);
    cases[1]![2] = y18.getTime();
    for (const [input, format, millis] of cases) {
      expect(dateFormatter(format).parse(input), `${format} ${input}`).toBe(millis);
    }
  });

  it('print like Joda', () => {
    const t = Date.UTC(2018, 10, 26, 12, 12, 12, 123);
    const expected: Record<string, string> = {
      basicDate: '20181126',
      basicDateTime: '20181126T121212.123Z',
      basicDateTimeNoMillis: '20181126T121212Z',
      basicOrdinalDate: '2018330',
      basicOrdinalDateTime: '2018330T121212.123Z',
      basicOrdinalDateTimeNoMillis: '2018330T121212Z',
      basicTime: '121212.123Z',
      basicTimeNoMillis: '121212Z',
      basicTTime: 'T121212.123Z',
      basicTTimeNoMillis: 'T121212Z',
      basicWeekDate: '2018W481',
      basicWeekDateTime: '2018W481T121212.123Z',
      basicWeekDateTimeNoMillis: '2018W481T121212Z',
      date: '2018-11-26',
      dateHour: '2018-11-26T12',
      dateHourMinute: '2018-11-26T12:12',
      dateHourMinuteSecond: '2018-11-26T12:12:12',
      dateHourMinuteSecondFraction: '2018-11-26T12:12:12.123',
      dateHourMinuteSecondMillis: '2018-11-26T12:12:12.123',
      dateOptionalTime: '2018-11-26T12:12:12.123Z',
      dateTime: '2018-11-26T12:12:12.123Z',
      dateTimeNoMillis: '2018-11-26T12:12:12Z',
      hour: '12',
      hourMinute: '12:12',
      hourMinuteSecond: '12:12:12',
      hourMinuteSecondFraction: '12:12:12.123',
      hourMinuteSecondMillis: '12:12:12.123',
      ordinalDate: '2018-330',
      ordinalDateTime: '2018-330T12:12:12.123Z',
      ordinalDateTimeNoMillis: '2018-330T12:12:12Z',
      time: '12:12:12.123Z',
      timeNoMillis: '12:12:12Z',
      tTime: 'T12:12:12.123Z',
      tTimeNoMillis: 'T12:12:12Z',
      weekDate: '2018-W48-1',
      weekDateTime: '2018-W48-1T12:12:12.123Z',
      weekDateTimeNoMillis: '2018-W48-1T12:12:12Z',
      weekyear: '2018',
      weekyearWeek: '2018-W48',
      weekyearWeekDay: '2018-W48-1',
      year: '2018',
      yearMonth: '2018-11',
      yearMonthDay: '2018-11-26',
      epoch_millis: '1543234332123',
      epoch_second: '1543234332',
    };
    for (const [name, out] of Object.entries(expected)) {
      expect(dateFormatter(name).format(t), name).toBe(out);
      const strict = 'strict' + name[0]!.toUpperCase() + name.slice(1);
      if (!name.startsWith('basic') || name.startsWith('basicWeek')) {
        if (!name.startsWith('epoch')) expect(dateFormatter(strict).format(t), strict).toBe(out);
      }
    }
  });

  it('know every ES 6.8 name in snake and camel case', () => {
    const names = namedFormatNames();
    expect(names).toContain('strict_date_optional_time');
    expect(names).toContain('strictDateOptionalTime');
    expect(names).toContain('basic_t_time_no_millis');
    expect(names).toContain('basicTTimeNoMillis');
    expect(names).toContain('week_year');
    expect(names).toContain('weekyear');
    expect(names).toContain('strict_weekyear_week_day');
    expect(names).not.toContain('strict_basic_date');
    // 43 lenient names (date, hour, time, year are the same in both cases) + 33 strict ones
    expect(names.length).toBe(2 * 43 - 4 + 2 * 33 + 2);
    for (const n of names) expect(dateFormatter(n).pattern).toBe(n);
  });
});

describe('default format and ISO fast path', () => {
  const f = dateFormatter(DEFAULT_DATE_FORMAT);

  it('parses the documented ISO forms', () => {
    expect(f.parse('2015-01-01')).toBe(Date.UTC(2015, 0, 1));
    expect(f.parse('2015-01-01T12:10:30Z')).toBe(Date.UTC(2015, 0, 1, 12, 10, 30));
    expect(f.parse('2015-01-01T12:10:30.123+01:00')).toBe(Date.UTC(2015, 0, 1, 11, 10, 30, 123));
    expect(f.parse('2015-01-01t12:10:30z')).toBe(Date.UTC(2015, 0, 1, 12, 10, 30));
    expect(f.parse('2015-01-01T')).toBe(Date.UTC(2015, 0, 1));
    expect(f.parse('2015-01-01TZ')).toBe(Date.UTC(2015, 0, 1));
    expect(f.parse('2015-01-01T10:00:00.1234')).toBe(Date.UTC(2015, 0, 1, 10, 0, 0, 123));
    expect(f.parse('2014')).toBe(Date.UTC(2014, 0, 1));
  });

  it('falls back to epoch millis, truncating fractions like BigDecimal.longValue', () => {
    expect(f.parse('1418248078000')).toBe(1418248078000);
    expect(f.parse('-1')).toBe(-1);
    expect(f.parse('-1.5')).toBe(-1);
    expect(f.parse('1.9')).toBe(1);
    expect(f.parse('1e3')).toBe(1000);
    expect(f.parse('10000')).toBe(10000);
    expect(dateFormatter('epoch_second').parse('1.5')).toBe(1000);
    expect(reason(() => f.parse('92233720368547758070'))).toBe(
      'Invalid format: "92233720368547758070" is malformed at "3720368547758070"',
    );
  });

  it('rejects bad dates with Joda messages', () => {
    expect(reason(() => f.parse('2015-1-1'))).toBe(
      'Invalid format: "2015-1-1" is malformed at "-1-1"',
    );
    expect(reason(() => f.parse('2015-13-01'))).toBe(
      'Cannot parse "2015-13-01": Value 13 for monthOfYear must be in the range [1,12]',
    );
    expect(reason(() => f.parse('2015-02-29'))).toBe(
      'Cannot parse "2015-02-29": Value 29 for dayOfMonth must be in the range [1,28]',
    );
    expect(reason(() => f.parse('2015-01-01T24:00'))).toBe(
      'Cannot parse "2015-01-01T24:00": Value 24 for hourOfDay must be in the range [0,23]',
    );
    expect(reason(() => f.parse('abc'))).toBe('Invalid format: "abc"');
    expect(reason(() => f.parse(''))).toBe('Invalid format: ""');
    expect(reason(() => f.parse('2015-01-01T10:00:00.'))).toBe(
      'Invalid format: "2015-01-01T10:00:00." is malformed at "."',
    );
    expect(reason(() => f.parse('2015-01-01 10:00'))).toBe(
      'Invalid format: "2015-01-01 10:00" is malformed at " 10:00"',
    );
    const long = '2015-01-01T10:00:00.000Z and some more text beyond the sample';
    expect(reason(() => f.parse(long))).toBe(
      `Invalid format: "${long.slice(0, 24 + 32)}..." is malformed at "${long.slice(24, 24 + 32)}..."`,
    );
    expect(f.parseOrNull('nope')).toBeNull();
  });

  it('lenient date_optional_time accepts short fields and long years', () => {
    const l = dateFormatter('date_optional_time||epoch_millis');
    expect(l.parse('2015-1-1')).toBe(Date.UTC(2015, 0, 1));
    expect(l.parse('10000')).toBe(Date.UTC(10000, 0, 1));
    expect(l.parse('-0001-01-01')).toBe(-62198755200000);
  });

  it('uses the time zone when the text has none, and refuses DST gaps', () => {
    const paris = timeZone('Europe/Paris');
    expect(f.parse('2015-07-01T12:00:00', paris)).toBe(Date.UTC(2015, 6, 1, 10));
    expect(f.parse('2015-07-01T12:00:00Z', paris)).toBe(Date.UTC(2015, 6, 1, 12));
    expect(reason(() => f.parse('2014-03-30T02:30:00', paris))).toBe(
      'Cannot parse "2014-03-30T02:30:00": Illegal instant due to time zone offset transition (Europe/Paris)',
    );
    // overlap: Joda picks the earlier instant (summer time)
    expect(f.parse('2014-10-26T02:30:00', paris)).toBe(Date.UTC(2014, 9, 26, 0, 30));
    const ny = timeZone('America/New_York');
    expect(f.parse('2014-11-02T01:30:00', ny)).toBe(Date.UTC(2014, 10, 2, 5, 30));
    expect(reason(() => dateFormatter('epoch_millis').parse('1234', paris))).toBe(
      'time_zone must be UTC for format [epoch_millis]',
    );
    expect(dateFormatter('epoch_millis').parse('1234', timeZone('+00:00'))).toBe(1234);
  });

  it('formats like Joda dateTime: millis always, Z for UTC, offsets otherwise', () => {
    expect(f.format(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(f.format(Date.UTC(2015, 0, 1, 12, 10, 30))).toBe('2015-01-01T12:10:30.000Z');
    expect(f.format(Date.UTC(2015, 0, 1, 12), timeZone('Europe/Paris'))).toBe(
      '2015-01-01T13:00:00.000+01:00',
    );
    expect(f.format(Date.UTC(2015, 6, 1, 12), timeZone('America/New_York'))).toBe(
      '2015-07-01T08:00:00.000-04:00',
    );
    expect(f.format(Date.UTC(2015, 6, 1, 12), timeZone('Asia/Kathmandu'))).toBe(
      '2015-07-01T17:45:00.000+05:45',
    );
    expect(f.format(Date.UTC(1900, 0, 1), timeZone('Europe/Paris'))).toBe(
      '1900-01-01T00:09:21.000+00:09:21',
    );
    expect(f.format(-62198755200000)).toBe('-0001-01-01T00:00:00.000Z');
    expect(f.format(253402300800000)).toBe('10000-01-01T00:00:00.000Z');
    expect(f.format(-1)).toBe('1969-12-31T23:59:59.999Z');
    expect(dateFormatter('epoch_millis').format(-1234)).toBe('-1234');
    expect(dateFormatter('epoch_second').format(-1500)).toBe('-1');
  });

  it('round-trips format -> parse (property)', () => {
    const zones = ['UTC', '+05:30', 'Europe/Paris', 'America/New_York', 'Australia/Lord_Howe'];
    fc.assert(
      fc.property(
        // years 1..9998: strict formats print/parse 4-digit years only
        fc.integer({ min: -62_135_596_800_000, max: 253_370_764_799_999 }),
        fc.constantFrom(...zones),
        (t, zoneId) => {
          const zone = timeZone(zoneId);
          expect(f.parse(f.format(t, zone))).toBe(t);
          expect(dateFormatter('date_optional_time').parse(f.format(t, zone))).toBe(t);
          // basic formats print offsets as +hhmm only, losing the seconds of pre-1900 LMT offsets
          if (t >= 0) {
            const basic = dateFormatter('basic_date_time');
            expect(basic.parse(basic.format(t, zone))).toBe(t);
          }
          expect(dateFormatter('epoch_millis').parse(String(t))).toBe(t);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('fast path and generic parser agree (property)', () => {
    const generic = genericJodaFormatter('strict_date_optional_time');
    const digits = (n: number) =>
      fc.integer({ min: 0, max: 10 ** n - 1 }).map((v) => String(v).padStart(n, '0'));
    const iso = fc
      .tuple(
        digits(4),
        fc.option(fc.tuple(digits(2), fc.option(digits(2)))),
        fc.option(
          fc.tuple(
            digits(2),
            fc.option(fc.tuple(digits(2), fc.option(fc.tuple(digits(2), fc.option(digits(5)))))),
          ),
        ),
        fc.constantFrom('', 'Z', '+01:00', '-0530', '+14', '+2400'),
      )
      .map(([y, md, time, off]) => {
        let s = y;
        if (md) s += '-' + md[0] + (md[1] !== null ? '-' + md[1] : '');
        if (time || off) {
          s += 'T';
          if (time) {
            s += time[0];
            if (time[1])
              s +=
                ':' +
                time[1][0] +
                (time[1][1]
                  ? ':' + time[1][1][0] + (time[1][1][1] ? '.' + time[1][1][1] : '')
                  : '');
          }
          s += off;
        }
        return s;
      });
    fc.assert(
      fc.property(
        iso,
        fc.constantFrom('UTC', 'Europe/Paris', 'America/New_York'),
        fc.boolean(),
        (s, zoneId, roundUp) => {
          const zone = timeZone(zoneId);
          const outcome = (fn: () => number) => {
            try {
              return fn();
            } catch (e) {
              return (e as EsError).reason;
            }
          };
          const fast = dateFormatter('strict_date_optional_time');
          expect(outcome(() => fast.parse(s, zone))).toEqual(outcome(() => generic.parse(s, zone)));
          expect(outcome(() => fast.parseInto(s, zone, roundUp))).toEqual(
            outcome(() => generic.parseInto(s, zone, roundUp)),
          );
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('fast path fuzz', () => {
  it('agrees with the generic parser on arbitrary ISO-like strings (property)', () => {
    const generic = genericJodaFormatter('strict_date_optional_time');
    const lenientGeneric = genericJodaFormatter('date_optional_time');
    const outcome = (fn: () => number) => {
      try {
        return fn();
      } catch (e) {
        return (e as EsError).reason;
      }
    };
    const chars = fc.constantFrom(...'0123456789012345678901234567890123456789-T:.Z+z,'.split(''));
    fc.assert(
      fc.property(
        fc.oneof(
          fc
            .array(
              fc.oneof(
                fc.integer({ min: 0, max: 999 }).map(String),
                fc.integer({ min: 0, max: 99 }).map((v) => String(v).padStart(2, '0')),
                fc.constantFrom('-', 'T', ':', '.', 'Z', '+', ','),
              ),
              { maxLength: 14 },
            )
            .map((a) => '2015-' + a.join('')),
          fc.array(chars, { maxLength: 32 }).map((a) => a.join('')),
          fc.array(chars, { maxLength: 20 }).map((a) => '2015-' + a.join('')),
          fc.array(chars, { maxLength: 20 }).map((a) => '2015-06-15T' + a.join('')),
        ),
        fc.constantFrom('UTC', 'Europe/Paris'),
        fc.boolean(),
        (s, zoneId, roundUp) => {
          const zone = timeZone(zoneId);
          const fast = dateFormatter('strict_date_optional_time');
          const lenient = dateFormatter('date_optional_time');
          expect(outcome(() => fast.parse(s, zone))).toEqual(outcome(() => generic.parse(s, zone)));
          expect(outcome(() => fast.parseInto(s, zone, roundUp))).toEqual(
            outcome(() => generic.parseInto(s, zone, roundUp)),
          );
          expect(outcome(() => lenient.parse(s, zone))).toEqual(
            outcome(() => lenientGeneric.parse(s, zone)),
          );
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe('integer fast path of the default format', () => {
  it('agrees with the generic parser (property)', () => {
    const fast = dateFormatter(DEFAULT_DATE_FORMAT);
    const generic = genericJodaFormatter(DEFAULT_DATE_FORMAT);
    const outcome = (fn: () => number) => {
      try {
        return fn();
      } catch (e) {
        return (e as EsError).reason;
      }
    };
    fc.assert(
      fc.property(
        fc.oneof(
          fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String),
          fc.integer({ min: -99999, max: 99999 }).map(String),
          fc.integer({ min: 0, max: 9999 }).map((v) => '+' + v),
          fc.stringMatching(/^[-+]?[0-9]{0,6}$/),
        ),
        (s) => {
          expect(outcome(() => fast.parse(s))).toEqual(outcome(() => generic.parse(s)));
        },
      ),
      { numRuns: 3000 },
    );
    expect(fast.parse('2014')).toBe(Date.UTC(2014, 0, 1));
    expect(fast.parse('-2014')).toBe(Date.UTC(-2014, 0, 1));
    expect(fast.parse('+2014')).toBe(Date.UTC(2014, 0, 1));
    expect(fast.parse('123')).toBe(123);
    expect(fast.parse('-0')).toBe(0);
  });
});

describe('custom Joda patterns', () => {
  it('parse common patterns', () => {
    const u = Date.UTC;
    const cases: [string, string, number][] = [
      ['yyyy-MM-dd HH:mm:ss', '2018-02-18 17:47:17', u(2018, 1, 18, 17, 47, 17)],
      ['dd/MM/yyyy', '31/12/2019', u(2019, 11, 31)],
      ["yyyyMMdd'T'HHmmss.SSSZ", '20150101T121030.123+0100', u(2015, 0, 1, 11, 10, 30, 123)],
      ['E, d MMM yyyy HH:mm:ss Z', 'Wed, 6 Dec 2000 02:55:00 -0800', u(2000, 11, 6, 10, 55)],
      ['EEEE, MMMM d, yyyy', 'Wednesday, December 6, 2000', u(2000, 11, 6)],
      ['MMM', 'Feb', u(1970, 1, 1)],
      ['MMM', 'feb', u(1970, 1, 1)],
      ['MMM', 'FEBRUARY', u(1970, 1, 1)],
      ['hh:mm a', '03:15 PM', u(1970, 0, 1, 15, 15)],
      ['hh:mm a', '12:15 am', u(1970, 0, 1, 0, 15)],
      ['yyyy-MM-dd ZZ', '2015-01-01 +05:30', u(2014, 11, 31, 18, 30)],
      ['yyyy-MM-dd ZZZ', '2015-07-01 Europe/Paris', u(2015, 5, 30, 22)],
      ['yyyy-MM-dd ZZZ', '2015-07-01 Asia/Kolkata', u(2015, 5, 30, 18, 30)],
      ['yyyy-MM-dd ZZZ', '2015-07-01 US/Eastern', u(2015, 6, 1, 4)],
      [
        "yyyy-MM-dd'T'HH:mm:ss [ZZZ]",
        '2016-11-10T05:37:59 [America/Chicago]',
        u(2016, 10, 10, 11, 37, 59),
      ],
      ['yyyy-MM-dd z', '2015-07-01 PDT', u(2015, 6, 1, 7)],
      ["yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", '2015-07-01T10:11:12.345Z', u(2015, 6, 1, 10, 11, 12, 345)],
      ["yyyy.MM.dd 'at' HH:mm", '2015.07.01 at 10:11', u(2015, 6, 1, 10, 11)],
      ["yyyy-MM-dd''HH", "2015-07-01'10", u(2015, 6, 1, 10)],
      ['dd/MMM/yyyy:HH:mm:ss Z', '10/Oct/2000:13:55:36 -0700', u(2000, 9, 10, 20, 55, 36)],
      ['yyyyMMdd', '20150701', u(2015, 6, 1)],
      ['D', '32', u(1970, 1, 1)],
      ['dd', '15', u(1970, 0, 15)],
      ['HH:mm:ss', '04:52:20', u(1970, 0, 1, 4, 52, 20)],
      ['kk:mm', '24:00', u(1970, 0, 1)],
      ['x-ww-e', '2015-05-3', u(2015, 0, 28)],
      ['yyyy G', '2000 AD', u(2000, 0, 1)],
      ['YYYY-MM', '2015-03', u(2015, 2, 1)],
      ['yyyy-MM-dd HH:mm:ss.S', '2015-07-01 10:11:12.9', u(2015, 6, 1, 10, 11, 12, 900)],
      ['yyyy/MM/dd', '2014/1/2', u(2014, 0, 2)],
    ];
    for (const [pattern, input, millis] of cases) {
      expect(dateFormatter(pattern).parse(input), `${pattern} ${input}`).toBe(millis);
    }
  });

  it('two-digit years pivot around the current year', () => {
    const thisYear = new Date(Date.now()).getUTCFullYear();
    const yy = dateFormatter('yy-MM-dd');
    const pivot = thisYear - 30;
    const low = pivot - 50;
    const lo2 = String(low % 100).padStart(2, '0');
    expect(yy.parse(`${lo2}-01-01`)).toBe(Date.UTC(low, 0, 1));
    // lenient when not followed by a number: 4 digits are a full year
    expect(dateFormatter('yy').parse('1985')).toBe(Date.UTC(1985, 0, 1));
  });

  it('format common patterns', () => {
    const t = Date.UTC(2000, 11, 6, 10, 55, 0, 7);
    const paris = timeZone('Europe/Paris');
    expect(dateFormatter('E, d MMM yyyy HH:mm:ss Z').format(t)).toBe(
      'Wed, 6 Dec 2000 10:55:00 +0000',
    );
    expect(dateFormatter('E, d MMM yyyy HH:mm:ss Z').format(t, paris)).toBe(
      'Wed, 6 Dec 2000 11:55:00 +0100',
    );
    expect(dateFormatter('yyyy-MM-dd HH:mm:ss.SSS ZZ ZZZ').format(t, paris)).toBe(
      '2000-12-06 11:55:00.007 +01:00 Europe/Paris',
    );
    expect(dateFormatter('yyyy-MM-dd z').format(t, paris)).toBe('2000-12-06 CET');
    expect(dateFormatter('yyyy-MM-dd z').format(Date.UTC(2000, 6, 6), paris)).toBe(
      '2000-07-06 CEST',
    );
    expect(dateFormatter('yyyy-MM-dd z').format(t, timeZone('America/New_York'))).toBe(
      '2000-12-06 EST',
    );
    expect(dateFormatter('yyyy-MM-dd z ZZ Z').format(t)).toBe('2000-12-06 UTC +00:00 +0000');
    expect(dateFormatter('EEEE MMMM hh a S').format(t)).toBe('Wednesday December 10 AM 0');
    expect(dateFormatter('yy D w e x').format(t)).toBe('00 341 49 3 2000');
    expect(dateFormatter("'quoted ''text''' yyyy").format(t)).toBe("quoted 'text' 2000");
    expect(dateFormatter('yyyy').format(Date.UTC(-5, 0, 1))).toBe('-0005');
    expect(dateFormatter('YYYY G').format(Date.UTC(-5, 0, 1))).toBe('0006 BC');
  });

  it('rejects invalid patterns with ES wording', () => {
    const err = (p: string) => reason(() => dateFormatter(p));
    expect(err('yyyy-MM-ddXX')).toBe(
      'Invalid format: [yyyy-MM-ddXX]: Illegal pattern component: XX',
    );
    expect(err('foo')).toBe('Invalid format: [foo]: Illegal pattern component: f');
    expect(err('strict_date_optional_time_nanos')).toBe(
      'Invalid format: [strict_date_optional_time_nanos]: Illegal pattern component: t',
    );
    expect(err('')).toBe('No date pattern provided');
    expect(err('  ')).toBe('No date pattern provided');
    expect(err('date||')).toBe('No date pattern provided');
  });

  it('reports the pattern as given (trimmed)', () => {
    expect(dateFormatter(' yyyy ').pattern).toBe('yyyy');
    expect(dateFormatter('date||epoch_millis').pattern).toBe('date||epoch_millis');
  });

  it('first format of a || list prints, any parses', () => {
    const f = dateFormatter('yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis');
    expect(f.parse('2014/10/10')).toBe(Date.UTC(2014, 9, 10));
    expect(f.parse('2014/10/10 12:12:12')).toBe(Date.UTC(2014, 9, 10, 12, 12, 12));
    expect(f.parse('1412899200000')).toBe(1412899200000);
    expect(f.format(Date.UTC(2014, 9, 10))).toBe('2014/10/10 00:00:00');
    expect(
      reason(() =>
        dateFormatter("yyyy-MM-dd'T'HH:mm:ss||yyyy-MM-dd'T'HH:mm:ss.SS").parse(
          '2014-06-06T12:01:02.123',
        ),
      ),
    ).toBe('Invalid format: "2014-06-06T12:01:02.123" is malformed at "3"');
  });

  it('parses and prints locale dependent names (REST 180_local_dependent_mapping)', () => {
    const de = dateFormatter('E, d MMM yyyy HH:mm:ss Z', 'joda', 'de');
    const mi = de.parse('Mi, 06 Dez 2000 02:55:00 -0800');
    const don = de.parse('Do, 07 Dez 2000 02:55:00 -0800');
    const lo = de.parse('Di, 05 Dez 2000 02:55:00 -0800');
    const hi1 = de.parse('Do, 07 Dez 2000 00:00:00 -0800');
    const hi2 = de.parse('Fr, 08 Dez 2000 00:00:00 -0800');
    expect([mi >= lo && mi <= hi1, don >= lo && don <= hi1]).toEqual([true, false]);
    expect([mi >= lo && mi <= hi2, don >= lo && don <= hi2]).toEqual([true, true]);
    expect(de.format(mi)).toBe('Mi, 6 Dez 2000 10:55:00 +0000');
    expect(dateFormatter('d MMMM yyyy', 'joda', 'fr').format(Date.UTC(2000, 7, 15))).toBe(
      '15 août 2000',
    );
    // the English names are not German ones
    expect(dateFormatter('MMM', 'joda', 'de').parseOrNull('Dec')).toBeNull();
  });
});
