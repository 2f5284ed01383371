/**
 * ES QueryBuilder.toString(): each builder's `doXContent` (every parameter with its default)
 * pretty-printed like ES's Jackson generator (2-space indents, `"key" : value`, Java float text).
 * Used in "failed to create query: {...}" reasons.
 */
import { javaDoubleToString, javaFloatToString } from './java.js';
import type {
  FieldBoosts,
  Fuzziness,
  QueryNode,
  ScoreFunctionNode,
  ScriptSpec,
  TermValue,
} from './nodes.js';

/** A JSON value with Java number kinds kept apart for printing. */
type Out =
  | null
  | boolean
  | string
  | { readonly float: number }
  | { readonly double: number }
  | { readonly int: number }
  | readonly Out[]
  | OutObject;
interface OutObject {
  readonly entries: ReadonlyArray<readonly [string, Out]>;
}

const float = (v: number): Out => ({ float: v });
const int = (v: number): Out => ({ int: v });
const obj = (...entries: Array<readonly [string, Out] | false | null>): OutObject => ({
  entries: entries.filter((e): e is readonly [string, Out] => Array.isArray(e)),
});

/** A JSON scalar the way ES holds it (Integer/Long/Double/Boolean/String). */
function value(v: TermValue | null): Out {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  return Number.isInteger(v) ? int(v) : { double: v };
}

function json(v: unknown): Out {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? int(v) : { double: v };
  if (Array.isArray(v)) return v.map(json);
  if (typeof v === 'object')
    return { entries: Object.entries(v as object).map(([k, x]) => [k, json(x)] as const) };
  return null;
}

const boostAndName = (n: QueryNode): Array<readonly [string, Out]> => {
  const out: Array<readonly [string, Out]> = [['boost', float(n.boost)]];
  if (n.queryName !== null) out.push(['_name', n.queryName]);
  return out;
};

const fuzzinessText = (f: Fuzziness): string =>
  f.auto ? (f.low === 3 && f.high === 6 ? 'AUTO' : `AUTO:${f.low},${f.high}`) : f.value;

const fieldSpecs = (fields: FieldBoosts, sorted: boolean): Out => {
  const list = sorted
    ? [...fields].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    : fields;
  return list.map(([f, b]) => `${f}^${javaFloatToString(b)}`);
};

function script(s: ScriptSpec): Out {
  return obj(
    s.source !== null ? ['source', s.source] : ['id', s.id],
    s.lang !== null && ['lang', s.lang],
    Object.keys(s.options).length > 0 && ['options', json(s.options)],
    Object.keys(s.params).length > 0 && ['params', json(s.params)],
  );
}

function scoreFunction(f: ScoreFunctionNode): Array<readonly [string, Out]> {
  const out: Array<readonly [string, Out]> = [];
  if (f.weight !== null) out.push(['weight', float(f.weight)]);
  switch (f.fn) {
    case 'weight':
      break;
    case 'field_value_factor':
      out.push([
        'field_value_factor',
        obj(
          ['field', f.field],
          ['factor', float(f.factor)],
          f.missing !== null && ['missing', { double: f.missing }],
          ['modifier', f.modifier],
        ),
      ]);
      break;
    case 'random_score':
      out.push([
        'random_score',
        obj(f.seed !== null && ['seed', value(f.seed)], f.field !== null && ['field', f.field]),
      ]);
      break;
    case 'script_score':
      out.push(['script_score', obj(['script', script(f.script)])]);
      break;
    default:
      out.push([
        f.fn,
        obj([f.field, json(f.params)], ['multi_value_mode', f.multiValueMode.toUpperCase()]),
      ]);
  }
  return out;
}

function body(n: QueryNode): OutObject {
  const bn = boostAndName(n);
  switch (n.type) {
    case 'match_all':
    case 'match_none':
      return obj([n.type, { entries: bn }]);
    case 'term':
      return obj(['term', obj([n.field, { entries: [['value', value(n.value)], ...bn] }])]);
    case 'terms':
      return obj([
        'terms',
        {
          entries: [
            n.lookup
              ? [
                  n.field,
                  obj(
                    ['index', n.lookup.index],
                    ['type', n.lookup.type],
                    ['id', n.lookup.id],
                    ['path', n.lookup.path],
                    n.lookup.routing !== null && ['routing', n.lookup.routing],
                  ),
                ]
              : [n.field, (n.values ?? []).map(value)],
            ...bn,
          ],
        },
      ]);
    case 'range':
      return obj([
        'range',
        obj([
          n.field,
          {
            entries: [
              ['from', value(n.from)],
              ['to', value(n.to)],
              ['include_lower', n.includeLower],
              ['include_upper', n.includeUpper],
              ...(n.timeZone !== null ? [['time_zone', n.timeZone] as const] : []),
              ...(n.format !== null ? [['format', n.format] as const] : []),
              ...(n.relation !== null ? [['relation', n.relation] as const] : []),
              ...bn,
            ],
          },
        ]),
      ]);
    case 'exists':
      return obj(['exists', { entries: [['field', n.field], ...bn] }]);
    case 'prefix':
    case 'wildcard':
      return obj([
        n.type,
        obj([
          n.field,
          {
            entries: [
              [n.type, n.value],
              ...(n.rewrite !== null ? [['rewrite', n.rewrite] as const] : []),
              ...bn,
            ],
          },
        ]),
      ]);
    case 'regexp':
      return obj([
        'regexp',
        obj([
          n.field,
          {
            entries: [
              ['value', n.value],
              ['flags_value', int(n.flags)],
              ['max_determinized_states', int(n.maxDeterminizedStates)],
              ...(n.rewrite !== null ? [['rewrite', n.rewrite] as const] : []),
              ...bn,
            ],
          },
        ]),
      ]);
    case 'fuzzy':
      return obj([
        'fuzzy',
        obj([
          n.field,
          {
            entries: [
              ['value', value(n.value)],
              ['fuzziness', fuzzinessText(n.fuzziness)],
              ['prefix_length', int(n.prefixLength)],
              ['max_expansions', int(n.maxExpansions)],
              ['transpositions', n.transpositions],
              ...(n.rewrite !== null ? [['rewrite', n.rewrite] as const] : []),
              ...bn,
            ],
          },
        ]),
      ]);
    case 'ids':
      return obj(['ids', { entries: [['type', [...n.types]], ['values', [...n.ids]], ...bn] }]);
    case 'type':
      return obj(['type', { entries: [['value', n.value], ...bn] }]);
    case 'match':
      return obj([
        'match',
        obj([
          n.field,
          obj(
            ['query', value(n.query)],
            ['operator', n.operator],
            n.analyzer !== null && ['analyzer', n.analyzer],
            n.fuzziness !== null && ['fuzziness', fuzzinessText(n.fuzziness)],
            ['prefix_length', int(n.prefixLength)],
            ['max_expansions', int(n.maxExpansions)],
            n.minimumShouldMatch !== null && ['minimum_should_match', n.minimumShouldMatch],
            n.fuzzyRewrite !== null && ['fuzzy_rewrite', n.fuzzyRewrite],
            ['fuzzy_transpositions', n.fuzzyTranspositions],
            ['lenient', n.lenient],
            ['zero_terms_query', n.zeroTermsQuery.toUpperCase()],
            n.cutoffFrequency !== null && ['cutoff_frequency', float(n.cutoffFrequency)],
            ['auto_generate_synonyms_phrase_query', n.autoGenerateSynonymsPhraseQuery],
            ...bn,
          ),
        ]),
      ]);
    case 'common': {
      const msm =
        (n.lowFreqMinimumShouldMatch !== null || n.highFreqMinimumShouldMatch !== null) &&
        obj(
          n.lowFreqMinimumShouldMatch !== null && ['low_freq', n.lowFreqMinimumShouldMatch],
          n.highFreqMinimumShouldMatch !== null && ['high_freq', n.highFreqMinimumShouldMatch],
        );
      return obj([
        'common',
        obj([
          n.field,
          obj(
            ['query', value(n.query)],
            ['high_freq_operator', n.highFreqOperator],
            ['low_freq_operator', n.lowFreqOperator],
            n.analyzer !== null && ['analyzer', n.analyzer],
            ['cutoff_frequency', float(n.cutoffFrequency)],
            msm !== false && ['minimum_should_match', msm],
            ...bn,
          ),
        ]),
      ]);
    }
    case 'match_phrase':
      return obj([
        'match_phrase',
        obj([
          n.field,
          obj(
            ['query', value(n.query)],
            n.analyzer !== null && ['analyzer', n.analyzer],
            ['slop', int(n.slop)],
            ['zero_terms_query', n.zeroTermsQuery.toUpperCase()],
            ...bn,
          ),
        ]),
      ]);
    case 'match_phrase_prefix':
      return obj([
        'match_phrase_prefix',
        obj([
          n.field,
          obj(
            ['query', value(n.query)],
            n.analyzer !== null && ['analyzer', n.analyzer],
            ['slop', int(n.slop)],
            ['max_expansions', int(n.maxExpansions)],
            ...bn,
          ),
        ]),
      ]);
    case 'multi_match':
      return obj([
        'multi_match',
        obj(
          ['query', value(n.query)],
          ['fields', fieldSpecs(n.fields, true)],
          ['type', n.matchType],
          ['operator', n.operator],
          n.analyzer !== null && ['analyzer', n.analyzer],
          ['slop', int(n.slop)],
          n.fuzziness !== null && ['fuzziness', fuzzinessText(n.fuzziness)],
          ['prefix_length', int(n.prefixLength)],
          ['max_expansions', int(n.maxExpansions)],
          n.minimumShouldMatch !== null && ['minimum_should_match', n.minimumShouldMatch],
          n.fuzzyRewrite !== null && ['fuzzy_rewrite', n.fuzzyRewrite],
          n.useDisMax !== null && ['use_dis_max', n.useDisMax],
          n.tieBreaker !== null && ['tie_breaker', float(n.tieBreaker)],
          n.lenient !== null && ['lenient', n.lenient],
          n.cutoffFrequency !== null && ['cutoff_frequency', float(n.cutoffFrequency)],
          ['zero_terms_query', n.zeroTermsQuery.toUpperCase()],
          ['auto_generate_synonyms_phrase_query', n.autoGenerateSynonymsPhraseQuery],
          ['fuzzy_transpositions', n.fuzzyTranspositions],
          ...bn,
        ),
      ]);
    case 'query_string':
      return obj([
        'query_string',
        obj(
          ['query', n.query],
          n.defaultField !== null && ['default_field', n.defaultField],
          ['fields', fieldSpecs(n.fields ?? [], true)],
          ['type', n.matchType],
          n.tieBreaker !== null && ['tie_breaker', float(n.tieBreaker)],
          ['default_operator', n.defaultOperator.toLowerCase()],
          n.analyzer !== null && ['analyzer', n.analyzer],
          n.quoteAnalyzer !== null && ['quote_analyzer', n.quoteAnalyzer],
          ['max_determinized_states', int(n.maxDeterminizedStates)],
          n.allowLeadingWildcard !== null && ['allow_leading_wildcard', n.allowLeadingWildcard],
          ['enable_position_increments', n.enablePositionIncrements],
          ['fuzziness', fuzzinessText(n.fuzziness)],
          ['fuzzy_prefix_length', int(n.fuzzyPrefixLength)],
          ['fuzzy_max_expansions', int(n.fuzzyMaxExpansions)],
          n.fuzzyRewrite !== null && ['fuzzy_rewrite', n.fuzzyRewrite],
          ['phrase_slop', int(n.phraseSlop)],
          n.analyzeWildcard !== null && ['analyze_wildcard', n.analyzeWildcard],
          n.rewrite !== null && ['rewrite', n.rewrite],
          n.minimumShouldMatch !== null && ['minimum_should_match', n.minimumShouldMatch],
          n.quoteFieldSuffix !== null && ['quote_field_suffix', n.quoteFieldSuffix],
          n.lenient !== null && ['lenient', n.lenient],
          n.timeZone !== null && ['time_zone', n.timeZone],
          ['escape', n.escape],
          ['auto_generate_synonyms_phrase_query', n.autoGenerateSynonymsPhraseQuery],
          ['fuzzy_transpositions', n.fuzzyTranspositions],
          ...bn,
        ),
      ]);
    case 'simple_query_string':
      return obj([
        'simple_query_string',
        obj(
          ['query', n.query],
          n.fields.length > 0 && ['fields', fieldSpecs(n.fields, false)],
          n.analyzer !== null && ['analyzer', n.analyzer],
          ['flags', int(n.flags)],
          ['default_operator', n.defaultOperator.toLowerCase()],
          n.lenient !== null && ['lenient', n.lenient],
          ['analyze_wildcard', n.analyzeWildcard],
          n.quoteFieldSuffix !== null && ['quote_field_suffix', n.quoteFieldSuffix],
          n.minimumShouldMatch !== null && ['minimum_should_match', n.minimumShouldMatch],
          ['auto_generate_synonyms_phrase_query', n.autoGenerateSynonymsPhraseQuery],
          ['fuzzy_prefix_length', int(n.fuzzyPrefixLength)],
          ['fuzzy_max_expansions', int(n.fuzzyMaxExpansions)],
          ['fuzzy_transpositions', n.fuzzyTranspositions],
          ...bn,
        ),
      ]);
    case 'bool':
      return obj([
        'bool',
        obj(
          n.must.length > 0 && ['must', n.must.map(body)],
          n.filter.length > 0 && ['filter', n.filter.map(body)],
          n.mustNot.length > 0 && ['must_not', n.mustNot.map(body)],
          n.should.length > 0 && ['should', n.should.map(body)],
          ['adjust_pure_negative', n.adjustPureNegative],
          n.minimumShouldMatch !== null && ['minimum_should_match', n.minimumShouldMatch],
          ...bn,
        ),
      ]);
    case 'constant_score':
      return obj(['constant_score', { entries: [['filter', body(n.filter)], ...bn] }]);
    case 'dis_max':
      return obj([
        'dis_max',
        {
          entries: [['tie_breaker', float(n.tieBreaker)], ['queries', n.queries.map(body)], ...bn],
        },
      ]);
    case 'boosting':
      return obj([
        'boosting',
        {
          entries: [
            ['positive', body(n.positive)],
            ['negative', body(n.negative)],
            ['negative_boost', float(n.negativeBoost)],
            ...bn,
          ],
        },
      ]);
    case 'function_score':
      return obj([
        'function_score',
        obj(
          ['query', body(n.query)],
          [
            'functions',
            n.functions.map((f) =>
              obj(
                ['filter', body(f.filter ?? { type: 'match_all', boost: 1, queryName: null })],
                ...scoreFunction(f.function),
              ),
            ),
          ],
          ['score_mode', n.scoreMode],
          n.boostMode !== null && ['boost_mode', n.boostMode],
          ['max_boost', float(n.maxBoost)],
          n.minScore !== null && ['min_score', float(n.minScore)],
          ...bn,
        ),
      ]);
    case 'nested':
      return obj([
        'nested',
        obj(
          ['query', body(n.query)],
          ['path', n.path],
          ['ignore_unmapped', n.ignoreUnmapped],
          ['score_mode', n.scoreMode],
          ...bn,
          n.innerHits !== null && ['inner_hits', json(n.innerHits)],
        ),
      ]);
    case 'has_child':
      return obj([
        'has_child',
        obj(
          ['query', body(n.query)],
          ['type', n.childType],
          ['score_mode', n.scoreMode],
          ['min_children', int(n.minChildren)],
          ['max_children', int(n.maxChildren)],
          ['ignore_unmapped', n.ignoreUnmapped],
          ...bn,
          n.innerHits !== null && ['inner_hits', json(n.innerHits)],
        ),
      ]);
    case 'has_parent':
      return obj([
        'has_parent',
        obj(
          ['query', body(n.query)],
          ['parent_type', n.parentType],
          ['score', n.score],
          ['ignore_unmapped', n.ignoreUnmapped],
          ...bn,
          n.innerHits !== null && ['inner_hits', json(n.innerHits)],
        ),
      ]);
    case 'parent_id':
      return obj([
        'parent_id',
        obj(['type', n.childType], ['id', n.id], ['ignore_unmapped', n.ignoreUnmapped], ...bn),
      ]);
    case 'percolate':
      return obj([
        'percolate',
        obj(
          ['field', n.field],
          n.name !== null && ['name', n.name],
          n.documents !== null && ['documents', json(n.documents)],
          n.indexed !== null && ['index', n.indexed.index],
          n.indexed?.type != null && ['type', n.indexed.type],
          n.indexed !== null && ['id', n.indexed.id],
          n.indexed?.routing != null && ['routing', n.indexed.routing],
          n.indexed?.preference != null && ['preference', n.indexed.preference],
          n.indexed?.version != null && ['version', int(n.indexed.version)],
          ...bn,
        ),
      ]);
    case 'script':
      return obj(['script', { entries: [['script', script(n.script)], ...bn] }]);
    case 'wrapper':
      return obj(['wrapper', obj(['query', Buffer.from(n.source).toString('base64')])]);
    case 'more_like_this': {
      const item = (i: (typeof n.likeItems)[number]): Out =>
        obj(
          i.index !== null && ['_index', i.index],
          i.type !== null && ['_type', i.type],
          i.id !== null && ['_id', i.id],
          i.doc !== null && ['doc', json(i.doc)],
          i.fields !== null && ['fields', i.fields.map((f) => f)],
          i.routing !== null && ['routing', i.routing],
        );
      const likes = (texts: readonly string[], items: (typeof n.likeItems)[number][]): Out[] => [
        ...texts,
        ...items.map(item),
      ];
      return obj([
        'more_like_this',
        obj(
          n.fields !== null && ['fields', [...n.fields]],
          ['like', likes(n.likeTexts, [...n.likeItems])],
          (n.unlikeTexts.length > 0 || n.unlikeItems.length > 0) && [
            'unlike',
            likes(n.unlikeTexts, [...n.unlikeItems]),
          ],
          ['max_query_terms', int(n.maxQueryTerms)],
          ['min_term_freq', int(n.minTermFreq)],
          ['min_doc_freq', int(n.minDocFreq)],
          ['max_doc_freq', int(n.maxDocFreq)],
          ['min_word_length', int(n.minWordLength)],
          ['max_word_length', int(n.maxWordLength)],
          n.stopWords !== null && ['stop_words', [...n.stopWords]],
          n.analyzer !== null && ['analyzer', n.analyzer],
          ['minimum_should_match', n.minimumShouldMatch],
          ['boost_terms', float(n.boostTerms)],
          ['include', n.include],
          ['fail_on_unsupported_field', n.failOnUnsupportedField],
          ...bn,
        ),
      ]);
    }
    case 'geo_distance':
    case 'geo_bounding_box':
      return obj([n.type, obj([n.field, obj()], ...bn)]);
    case 'span_term':
      return obj(['span_term', obj([n.field, { entries: [['value', value(n.value)], ...bn] }])]);
    case 'span_multi':
      return obj(['span_multi', { entries: [['match', body(n.match)], ...bn] }]);
    case 'span_near':
      return obj([
        'span_near',
        {
          entries: [
            ['clauses', n.clauses.map(body)],
            ['slop', int(n.slop)],
            ['in_order', n.inOrder],
            ...bn,
          ],
        },
      ]);
    case 'span_or':
      return obj(['span_or', { entries: [['clauses', n.clauses.map(body)], ...bn] }]);
    case 'span_not':
      return obj([
        'span_not',
        {
          entries: [
            ['include', body(n.include)],
            ['exclude', body(n.exclude)],
            ['pre', int(n.pre)],
            ['post', int(n.post)],
            ...bn,
          ],
        },
      ]);
    case 'span_first':
      return obj([
        'span_first',
        { entries: [['match', body(n.match)], ['end', int(n.end)], ...bn] },
      ]);
    case 'span_containing':
    case 'span_within':
      return obj([n.type, { entries: [['big', body(n.big)], ['little', body(n.little)], ...bn] }]);
    case 'field_masking_span':
      return obj([
        'field_masking_span',
        { entries: [['query', body(n.query)], ['field', n.field], ...bn] },
      ]);
    case 'span_gap':
      // SpanGapQueryBuilder.toXContent: no boost, no name
      return obj(['span_gap', obj([n.field, int(n.width)])]);
  }
}

function print(v: Out, level: number): string {
  const pad = (l: number) => '\n' + '  '.repeat(l);
  if (v === null) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) {
    const arr = v as readonly Out[];
    if (arr.length === 0) return '[ ]';
    return `[${arr.map((x) => pad(level + 1) + print(x, level + 1)).join(',')}${pad(level)}]`;
  }
  if ('float' in v) return javaFloatToString(v.float);
  if ('double' in v) return javaDoubleToString(v.double);
  if ('int' in v) return String(v.int);
  const o = v as OutObject;
  if (o.entries.length === 0) return '{ }';
  return `{${o.entries.map(([k, x]) => `${pad(level + 1)}${JSON.stringify(k)} : ${print(x, level + 1)}`).join(',')}${pad(level)}}`;
}

/** ES `QueryBuilder.toString()` (pretty JSON of the builder). */
export function renderQuery(n: QueryNode): string {
  return print(body(n), 0);
}
