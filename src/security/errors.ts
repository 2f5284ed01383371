/**
 * The security layer's errors, worded as x-pack 6.8 words them (`Exceptions`,
 * `DefaultAuthenticationFailureHandler`, `AuthorizationService.denial`). A 401 carries the
 * `WWW-Authenticate` challenge both as a response header and, as ES renders exception headers,
 * in the body's `header` object.
 */
import { EsError } from '../common/errors.js';

/** ES: XPackField.SECURITY realm in the Basic challenge. */
export const BASIC_CHALLENGE = 'Basic realm="security" charset="UTF-8"';

/** ES: Exceptions.authenticationError. */
export function authenticationError(reason: string): EsError {
  return new EsError('security_exception', reason, 401, {
    meta: { header: { 'WWW-Authenticate': BASIC_CHALLENGE } },
    headers: { 'WWW-Authenticate': BASIC_CHALLENGE },
  });
}

export const missingToken = (uri: string) =>
  authenticationError(`missing authentication token for REST request [${uri}]`);

export const failedAuthentication = (user: string, uri: string) =>
  authenticationError(`unable to authenticate user [${user}] for REST request [${uri}]`);

/** ES: AuthorizationService.denial (no run-as). */
export const unauthorized = (action: string, user: string) =>
  new EsError('security_exception', `action [${action}] is unauthorized for user [${user}]`, 403);
