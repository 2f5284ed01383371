/**
 * The pure logic of `GET/POST /_analyze` (ES TransportAnalyzeAction): resolves the analyzer from
 * `analyzer` / `tokenizer`+`filter`+`char_filter` / `normalizer` / `field`, analyzes every text
 * value (positions and offsets continue across array values with the analyzer's gaps) and returns
 * `{tokens}` or, with `explain`, the `detail` breakdown per component.
 */
import { actionRequestValidation, EsError, illegalArgument } from '../../common/errors.js';
import { stringifyDeep } from '../../common/json.js';
import { checkValueLists } from '../../common/settings-source.js';
import {
  ChainAnalyzer,
  type CharFilterFactory,
  type TokenFilterFactory,
  type TokenizerFactory,
} from './analyzer.js';
import { CHAR_FILTERS, FILTERS, TOKENIZERS } from './components.js';
import { chainAware, type AnalysisRegistry } from './registry.js';
import type { Params } from './settings-params.js';
import type { Token } from './token-stream.js';
import type { Analyzer, AnalyzedToken } from './types.js';

type Json = Record<string, unknown>;

function asList(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

function resolveTokenizer(
  def: unknown,
  reg: AnalysisRegistry,
): { name: string; f: TokenizerFactory } {
  if (typeof def === 'string') {
    const f = reg.tokenizer(def);
    if (f === undefined) {
      throw illegalArgument(
        reg.global
          ? `failed to find global tokenizer under [${def}]`
          : `failed to find tokenizer under [${def}]`,
      );
    }
    return { name: def, f };
  }
  const p = def as Params;
  checkValueLists(p); // ES TransportAnalyzeAction: Settings.builder().loadFromMap(definition)
  const type = p['type'];
  if (type === undefined)
    throw illegalArgument(`Missing [type] setting for anonymous tokenizer: ${stringifyDeep(p)}`);
  const provider = TOKENIZERS[String(type)];
  if (provider === undefined)
    throw illegalArgument(`failed to find global tokenizer under [${String(type)}]`);
  return {
    name: '_anonymous_tokenizer',
    f: provider('_anonymous_tokenizer', p, reg.indexSettings),
  };
}

function resolveCharFilter(
  def: unknown,
  reg: AnalysisRegistry,
  normalizer: boolean,
): CharFilterFactory {
  let f: CharFilterFactory | undefined;
  let name: string;
  if (typeof def === 'string') {
    name = def;
    f = reg.charFilter(def);
    if (f === undefined) {
      throw illegalArgument(
        reg.global
          ? `failed to find global char filter under [${def}]`
          : `failed to find char filter under [${def}]`,
      );
    }
  } else {
    const p = def as Params;
    checkValueLists(p); // ES TransportAnalyzeAction: Settings.builder().loadFromMap(definition)
    const type = p['type'];
    if (type === undefined)
      throw illegalArgument(
        `Missing [type] setting for anonymous char filter: ${stringifyDeep(p)}`,
      );
    const provider = CHAR_FILTERS[String(type)];
    if (provider === undefined)
      throw illegalArgument(`failed to find global char filter under [${String(type)}]`);
    name = String(type);
    f = provider('_anonymous_charfilter', p);
  }
  if (normalizer && f.normalizerSafe !== true)
    throw illegalArgument(`Custom normalizer may not use char filter [${name}]`);
  return f;
}

function resolveFilter(
  def: unknown,
  reg: AnalysisRegistry,
  normalizer: boolean,
): TokenFilterFactory {
  let f: TokenFilterFactory | undefined;
  let name: string;
  if (typeof def === 'string') {
    name = def;
    f = reg.filter(def);
    if (f === undefined) {
      throw illegalArgument(
        reg.global
          ? `failed to find global token filter under [${def}]`
          : `failed to find token filter under [${def}]`,
      );
    }
  } else {
    const p = def as Params;
    checkValueLists(p); // ES TransportAnalyzeAction: Settings.builder().loadFromMap(definition)
    const type = p['type'];
    if (type === undefined)
      throw illegalArgument(
        `Missing [type] setting for anonymous token filter: ${stringifyDeep(p)}`,
      );
    const provider = FILTERS[String(type)];
    if (provider === undefined)
      throw illegalArgument(`failed to find global token filter under [${String(type)}]`);
    name = String(type);
    f = provider('_anonymous_tokenfilter', p, reg.indexSettings);
  }
  if (normalizer && f.normalizerSafe !== true)
    throw illegalArgument(`Custom normalizer may not use filter [${name}]`);
  return f;
}

function buildRequestAnalyzer(
  body: Json,
  reg: AnalysisRegistry,
  normalizer: boolean,
): ChainAnalyzer {
  const tok = normalizer
    ? { name: 'keyword_for_normalizer', f: TOKENIZERS['keyword']!('keyword_for_normalizer', {}) }
    : resolveTokenizer(body['tokenizer'], reg);
  const charFilters = asList(body['char_filter']).map((d) => resolveCharFilter(d, reg, normalizer));
  const filters: TokenFilterFactory[] = [];
  for (const d of asList(body['filter'] ?? body['token_filters'])) {
    filters.push(
      chainAware(resolveFilter(d, reg, normalizer), tok.f, charFilters, filters, (n) =>
        reg.filter(n),
      ),
    );
  }
  // ES builds request analyzers with CustomAnalyzer's 4-argument constructor: gap 0.
  return new ChainAnalyzer(tok.name, tok.f, charFilters, filters, 0, true);
}

function resolveAnalyzer(
  body: Json,
  reg: AnalysisRegistry,
  fieldAnalyzer?: (f: string) => Analyzer | undefined,
): Analyzer {
  const field = body['field'];
  if (typeof field === 'string') {
    if (reg.global) {
      throw illegalArgument(
        'No index provided, and trying to analyzer based on a specific field which requires the index parameter',
      );
    }
    const a = fieldAnalyzer?.(field);
    if (a !== undefined) return a;
  }
  if (body['analyzer'] !== undefined) {
    const name = String(body['analyzer']);
    const a = reg.analyzer(name);
    if (a === undefined)
      throw illegalArgument(
        reg.global
          ? `failed to find global analyzer [${name}]`
          : `failed to find analyzer [${name}]`,
      );
    return a;
  }
  if (body['tokenizer'] !== undefined) return buildRequestAnalyzer(body, reg, false);
  if (body['normalizer'] !== undefined) {
    const name = String(body['normalizer']);
    const n = reg.chainNormalizer(name);
    if (n === undefined) throw illegalArgument(`failed to find normalizer under [${name}]`);
    return n.chain;
  }
  if (
    asList(body['filter'] ?? body['token_filters']).length > 0 ||
    asList(body['char_filter']).length > 0
  ) {
    return buildRequestAnalyzer(body, reg, true);
  }
  return reg.global ? reg.analyzer('standard')! : reg.defaultAnalyzer();
}

function validate(body: Json, texts: unknown[]): void {
  const problems: string[] = [];
  if (texts.length === 0) problems.push('text is missing');
  if (
    body['normalizer'] !== undefined &&
    (body['tokenizer'] !== undefined || body['analyzer'] !== undefined)
  ) {
    problems.push('tokenizer/analyze should be null if normalizer is specified');
  }
  if (
    body['analyzer'] !== undefined &&
    (body['tokenizer'] !== undefined ||
      body['filter'] !== undefined ||
      body['char_filter'] !== undefined)
  ) {
    problems.push('cannot define extra components on a named analyzer');
  }
  if (problems.length > 0) throw actionRequestValidation(problems);
}

/** Lucene BytesRef.toString(): the UTF-8 bytes in hex, e.g. "[66 6f 6f]". */
function bytesOf(term: string): string {
  const b = Buffer.from(term, 'utf8');
  const parts: string[] = [];
  for (const x of b) parts.push(x.toString(16));
  return `[${parts.join(' ')}]`;
}

interface TokenJson extends AnalyzedToken {
  [k: string]: unknown;
}

/**
 * `index.analyze.max_token_count` (ES 7; 6.8 had no limit, and a long enough text made a response
 * too large to build, killing the node): tokens one list of the answer may hold.
 */
export const DEFAULT_MAX_TOKEN_COUNT = 10_000;

const tooManyTokens = (max: number) =>
  new EsError(
    'illegal_state_exception',
    `The number of tokens produced by calling _analyze has exceeded the allowed maximum of [${max}]. This limit can be set by changing the [index.analyze.max_token_count] index level setting.`,
    500,
  );

/** ES TransportAnalyzeAction.TokenListCreator: positions/offsets continue across values. */
class TokenList {
  lastPosition = -1;
  lastOffset = 0;
  readonly tokens: TokenJson[] = [];
  constructor(
    private readonly attrs: Set<string> | null,
    private readonly keyword: boolean,
    private readonly maxTokens: number,
  ) {}

  add(a: ChainAnalyzer | Analyzer, text: string, filterCount?: number): void {
    const onToken = (t: Token) => {
      if (t.posInc > 0) this.lastPosition += t.posInc;
      const tok: TokenJson = {
        token: t.term,
        start_offset: this.lastOffset + t.startOffset,
        end_offset: this.lastOffset + t.endOffset,
        type: t.type,
        position: this.lastPosition,
      };
      if (t.posLen > 1) tok['positionLength'] = t.posLen;
      if (this.attrs !== null) this.addAttributes(tok, t);
      if (this.tokens.length >= this.maxTokens) throw tooManyTokens(this.maxTokens);
      this.tokens.push(tok);
    };
    if (a instanceof ChainAnalyzer) {
      const s = a.stream(text, filterCount);
      const t = s.token;
      while (s.next()) onToken(t);
      s.end();
      this.lastOffset += t.endOffset;
      this.lastPosition += t.posInc + a.positionIncrementGap;
    } else {
      // an analyzer from outside this module: only the sink contract is available
      const t = {
        term: '',
        startOffset: 0,
        endOffset: 0,
        type: '',
        posInc: 1,
        posLen: 1,
        keyword: false,
      } as Token;
      let prev = this.lastPosition;
      const base = this.lastOffset;
      const next = a.analyze(
        text,
        (term, position, s, e, type) => {
          t.term = term;
          t.startOffset = s - base;
          t.endOffset = e - base;
          t.type = type;
          t.posInc = position - prev;
          prev = position;
          onToken(t);
        },
        this.lastPosition + 1,
        base,
      );
      this.lastPosition = next - 1 + a.positionIncrementGap;
      this.lastOffset += text.length;
    }
    this.lastOffset += 1; // Lucene Analyzer.getOffsetGap
  }

  private addAttributes(tok: TokenJson, t: Token): void {
    const all: Record<string, unknown> = {
      bytes: bytesOf(t.term),
      positionLength: t.posLen,
      termFrequency: 1,
    };
    if (this.keyword) all['keyword'] = t.keyword;
    for (const k of Object.keys(all).sort()) {
      if (this.attrs!.size === 0 || this.attrs!.has(k.toLowerCase())) tok[k] = all[k];
    }
  }
}

export function analyzeApi(
  body: unknown,
  registry: AnalysisRegistry,
  fieldAnalyzer?: (field: string) => Analyzer | undefined,
  maxTokens = DEFAULT_MAX_TOKEN_COUNT,
): unknown {
  const b = (body ?? {}) as Json;
  const texts = asList(b['text']).map((t) => String(t));
  validate(b, texts);
  const analyzer = resolveAnalyzer(b, registry, fieldAnalyzer);
  const explain = b['explain'] === true || b['explain'] === 'true';
  if (!explain) {
    const list = new TokenList(null, false, maxTokens);
    for (const text of texts) list.add(analyzer, text);
    return { tokens: list.tokens };
  }
  const attrs = new Set(asList(b['attributes']).map((a) => String(a).toLowerCase()));
  if (!(analyzer instanceof ChainAnalyzer)) {
    const list = new TokenList(attrs, false, maxTokens);
    for (const text of texts) list.add(analyzer, text);
    return {
      detail: { custom_analyzer: false, analyzer: { name: analyzer.name, tokens: list.tokens } },
    };
  }
  if (!analyzer.custom) {
    const list = new TokenList(attrs, analyzer.keywordAware, maxTokens);
    for (const text of texts) list.add(analyzer, text);
    return {
      detail: { custom_analyzer: false, analyzer: { name: analyzer.name, tokens: list.tokens } },
    };
  }
  const charfilters = analyzer.charFilters.map((cf, i) => ({
    name: cf.name,
    filtered_text: texts.map((t) => {
      let s = t;
      for (let j = 0; j <= i; j++) s = analyzer.charFilters[j]!.apply(s).text;
      return s;
    }),
  }));
  const tokenizerList = new TokenList(attrs, false, maxTokens);
  const filterLists = analyzer.tokenFilters.map(
    (_, i) =>
      new TokenList(
        attrs,
        analyzer.tokenFilters.slice(0, i + 1).some((f) => f.keywordAware === true),
        maxTokens,
      ),
  );
  for (const text of texts) {
    tokenizerList.add(analyzer, text, 0);
    filterLists.forEach((l, i) => l.add(analyzer, text, i + 1));
  }
  return {
    detail: {
      custom_analyzer: true,
      charfilters,
      tokenizer: { name: analyzer.tokenizer.name, tokens: tokenizerList.tokens },
      tokenfilters: analyzer.tokenFilters.map((f, i) => ({
        name: f.name,
        tokens: filterLists[i]!.tokens,
      })),
    },
  };
}

/** Runs `a` over `text` and returns the tokens in `_analyze` shape. */
export function analyzeToTokens(a: Analyzer, text: string): AnalyzedToken[] {
  const out: AnalyzedToken[] = [];
  a.analyze(text, (token, position, start_offset, end_offset, type) => {
    out.push({ token, start_offset, end_offset, type, position });
  });
  return out;
}
