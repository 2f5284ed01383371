/**
 * Executes steps against a node (ES: ClientYamlTestExecutionContext, DoSection.execute, the
 * assertion sections, SetSection, TransformAndSetSection). The context holds the last response
 * and the stash; a step returns null when it holds or a `StepFailure` describing what went wrong.
 */
import type { ApiSpecs } from './api-spec.js';
import { buildRequest, encodeQuery, ParamError } from './api-spec.js';
import {
  assertCompare,
  assertContains,
  assertLength,
  assertMatch,
  isTruthy,
} from './assertions.js';
import { bodyFormat, type HttpClient, type HttpResponse } from './http-client.js';
import { javaToString } from './java-format.js';
import { compileJavaRegex } from './java-regex.js';
import { serializeJson, toPlain } from './json-value.js';
import { evaluatePath } from './object-path.js';
import { Stash } from './stash.js';
import type { DoStep, Step } from './suite.js';
import { checkWarnings, warningFailure } from './warnings.js';
import { stringify as toYaml } from 'yaml';

export interface StepFailure {
  phase: 'setup' | 'test' | 'teardown' | 'wipe';
  line: number;
  /** e.g. `do search`, `match hits.total`. */
  step: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
  /** The request a `do` step sent, e.g. `GET /test/_search`. */
  request?: string;
}

export interface ExecOptions {
  /** Fail a `do` whose response carries deprecation warnings it does not list (upstream). */
  strictWarnings: boolean;
  /** Add `error_trace=true` to every call that does not set it, as upstream does since 5.2. */
  errorTrace: boolean;
}

/** DoSection's named `catch` values and the statuses they accept. */
const CATCHES: Record<string, { text: string; ok: (s: number) => boolean }> = {
  bad_request: { text: '400', ok: (s) => s === 400 },
  unauthorized: { text: '401', ok: (s) => s === 401 },
  forbidden: { text: '403', ok: (s) => s === 403 },
  missing: { text: '404', ok: (s) => s === 404 },
  request_timeout: { text: '408', ok: (s) => s === 408 },
  conflict: { text: '409', ok: (s) => s === 409 },
  unavailable: { text: '503', ok: (s) => s === 503 },
  request: { text: '4xx|5xx', ok: (s) => s >= 400 && ![400, 401, 403, 404, 408, 409].includes(s) },
};

export class ExecutionContext {
  readonly stash = new Stash();
  private response: HttpResponse | null = null;
  private responseMethod = '';
  /** APIs called since the last `takeCalledApis()`, so the wipe can skip what was not touched. */
  private readonly called = new Set<string>();

  constructor(
    readonly client: HttpClient,
    readonly specs: ApiSpecs,
    readonly opts: ExecOptions,
  ) {}

  /** Clears the last response and the stash (between setup and the test section). */
  clear(): void {
    this.response = null;
    this.stash.clear();
  }

  takeCalledApis(): Set<string> {
    const s = new Set(this.called);
    this.called.clear();
    return s;
  }

  /** ClientYamlTestResponse.evaluate: a value of the last response body by path. */
  responseValue(path: string): unknown {
    const res = this.response;
    if (!res) return null;
    if (res.parsed === undefined) {
      // A body-less HEAD answers `''` with whether the call succeeded (exists APIs).
      if (path === '' && this.responseMethod === 'HEAD') return res.status < 400;
      return null;
    }
    return evaluatePath(res.parsed, path, this.stash);
  }

  async execute(step: Step, phase: StepFailure['phase']): Promise<StepFailure | null> {
    const label =
      step.kind === 'do'
        ? `do ${step.api}`
        : `${step.kind} ${'field' in step ? step.field : ''}`.trim();
    const fail = (message: string, extra: Partial<StepFailure> = {}): StepFailure => ({
      phase,
      line: step.line,
      step: label,
      message,
      ...extra,
    });
    try {
      switch (step.kind) {
        case 'do':
          return await this.executeDo(step, fail);
        case 'set':
          for (const [field, name] of step.pairs) this.stash.set(name, this.responseValue(field));
          return null;
        case 'transform_and_set':
          for (const [name, spec] of step.pairs) this.stash.set(name, this.transform(spec));
          return null;
        case 'is_true':
        case 'is_false': {
          const actual = this.actualValue(step.field);
          if (isTruthy(actual) === (step.kind === 'is_true')) return null;
          return fail(
            step.kind === 'is_true'
              ? `field [${step.field}] doesn't have a true value`
              : `field [${step.field}] has a true value but it shouldn't`,
            { actual },
          );
        }
        default: {
          const actual = this.actualValue(step.field);
          const expected = this.expectedValue(step.expected);
          const r =
            step.kind === 'match'
              ? assertMatch(step.field, actual, expected)
              : step.kind === 'length'
                ? assertLength(step.field, actual, expected)
                : step.kind === 'contains'
                  ? assertContains(step.field, actual, expected)
                  : assertCompare(step.kind, step.field, actual, expected);
          return r ? fail(r.message, { expected: r.expected, actual: r.actual }) : null;
        }
      }
    } catch (e) {
      return fail((e as Error).message);
    }
  }

  /** Assertion.getActualValue: a stashed value, or the response value at the path. */
  private actualValue(field: string): unknown {
    return this.stash.isStashed(field) ? this.stash.resolve(field) : this.responseValue(field);
  }

  /** Assertion.resolveExpectedValue: stash references replaced (deeply in maps and lists). */
  private expectedValue(expected: unknown): unknown {
    if (this.stash.isStashed(expected)) return this.stash.resolve(expected);
    if (expected !== null && typeof expected === 'object')
      return this.stash.replaceStashedValues(expected);
    return expected;
  }

  /** TransformAndSetSection: only `#base64EncodeCredentials(user,password)` transforms. */
  private transform(spec: string): unknown {
    const prefix = '#base64EncodeCredentials(';
    if (!spec.startsWith(prefix) || !spec.endsWith(')')) return spec;
    const args = spec.slice(prefix.length, spec.lastIndexOf(')')).split(',');
    if (args.length !== 2)
      throw new Error('base64EncodeCredentials requires a username/id and a password parameters');
    const creds = `${javaToString(this.responseValue(args[0]!.trim()))}:${javaToString(this.responseValue(args[1]!.trim()))}`;
    return Buffer.from(creds, 'utf8').toString('base64');
  }

  private async executeDo(
    step: DoStep,
    fail: (m: string, extra?: Partial<StepFailure>) => StepFailure,
  ): Promise<StepFailure | null> {
    this.called.add(step.api);
    if (step.hasNodeSelector) return fail('node_selector is not supported by this runner');
    const params = new Map<string, string>();
    for (const [k, v] of step.params)
      params.set(k, this.stash.isStashed(v) ? javaToString(this.stash.resolve(v)) : v);
    // ClientYamlTestExecutionContext: requestParams.putIfAbsent("error_trace", "true").
    if (this.opts.errorTrace && !params.has('error_trace')) params.set('error_trace', 'true');
    const headers = new Map<string, string>();
    for (const [k, v] of step.headers)
      headers.set(k, this.stash.isStashed(v) ? javaToString(this.stash.resolve(v)) : v);
    const bodies =
      step.bodies === null ? null : step.bodies.map((b) => this.stash.replaceStashedValues(b));

    let built;
    try {
      built = buildRequest(this.specs, step.api, params, bodies !== null && bodies.length > 0);
    } catch (e) {
      if (!(e instanceof ParamError)) throw e;
      // catch: param — the client rejects the call before sending anything.
      if (step.catch === 'param') return null;
      return fail(e.message);
    }
    if (step.catch === 'param') {
      return fail('expected the client to reject the call [catch: param], but it was valid');
    }

    const reqHeaders: Record<string, string> = {};
    let contentType: string | undefined;
    for (const [k, v] of headers) {
      if (k.toLowerCase() === 'content-type') contentType = v;
      reqHeaders[k] = v;
    }
    let body: Buffer | undefined;
    if (bodies && bodies.length > 0) {
      const api = this.specs.apis.get(step.api)!;
      const format = bodyFormat(contentType ?? null) ?? 'json';
      if (format !== 'json' && format !== 'yaml')
        return fail(`cannot encode a ${format} request body`);
      if (api.bulkBody || bodies.length > 1) {
        body = Buffer.from(bodies.map((b) => serializeJson(b) + '\n').join(''), 'utf8');
        contentType ??= api.bulkBody ? 'application/x-ndjson' : 'application/json; charset=UTF-8';
      } else if (format === 'yaml') {
        body = Buffer.from(toYaml(toPlain(bodies[0])), 'utf8');
      } else {
        body = Buffer.from(serializeJson(bodies[0]), 'utf8');
        contentType ??= 'application/json; charset=UTF-8';
      }
      if (!Object.keys(reqHeaders).some((k) => k.toLowerCase() === 'content-type')) {
        reqHeaders['Content-Type'] = contentType!;
      }
    }

    const target = built.path + encodeQuery(built.query);
    const request = `${built.method} ${target}`;
    let res: HttpResponse;
    try {
      res = await this.client.send({
        method: built.method,
        path: target,
        headers: reqHeaders,
        ...(body ? { body } : {}),
      });
    } catch (e) {
      return fail(`request failed: ${(e as Error).message}`, { request });
    }
    this.response = res;
    this.responseMethod = built.method;
    // The last response body is always stashed as `body` (parsed, or the text).
    this.stash.set('body', res.parsed !== undefined ? res.parsed : res.hasBody ? res.text : null);
    if (res.parseError) return fail(res.parseError, { request, actual: res.text });

    const failed = res.status >= 300 && !built.ignore.has(res.status);
    const statusMessage = (expected: string): string =>
      `expected [${expected}] status code but api [${step.api}] returned [${res.status} ${res.statusText}] [${res.text}]`;
    if (!failed) {
      if (step.catch) {
        const c = CATCHES[step.catch];
        if (!c && !isRegexCatch(step.catch))
          return fail(`catch value [${step.catch}] not supported`, { request });
        return fail(statusMessage(c ? c.text : '4xx|5xx'), { request });
      }
      const problem = warningFailure(
        checkWarnings(res.warnings, step.warnings, step.allowedWarnings, this.opts.strictWarnings),
      );
      return problem
        ? fail(problem, { request, expected: step.warnings, actual: res.warnings })
        : null;
    }
    if (!step.catch) return fail(statusMessage('2xx'), { request });
    const c = CATCHES[step.catch];
    if (c) return c.ok(res.status) ? null : fail(statusMessage(c.text), { request });
    if (isRegexCatch(step.catch)) {
      if (res.status < 400) return fail(statusMessage('4xx|5xx'), { request });
      const error = this.responseValue('error');
      if (error === null || error === undefined)
        return fail('error was expected in the response', { request, actual: res.text });
      const regex = step.catch.slice(1, -1);
      const text = javaToString(error);
      return compileJavaRegex(regex).test(text)
        ? null
        : fail("the error message was expected to match the provided regex but didn't", {
            request,
            expected: step.catch,
            actual: text,
          });
    }
    return fail(`catch value [${step.catch}] not supported`, { request });
  }
}

function isRegexCatch(c: string): boolean {
  return c.length > 2 && c.startsWith('/') && c.endsWith('/');
}
