/** Tokenizer types of ES 6.8's analysis-common module beyond the core ones in components.ts. */
import { illegalArgument } from '../../common/errors.js';
import type { TokenizerFactory } from './analyzer.js';
import { intParam, type Params } from './settings-params.js';
import { ClassicTokenizer, UaxUrlEmailTokenizer } from './tokenizers/regex-scan-tokenizer.js';
import { ThaiTokenizer } from './tokenizers/thai-tokenizer.js';

type TokenizerProvider = (name: string, p: Params) => TokenizerFactory;

function maxTokenLength(p: Params): number {
  const max = intParam(p, 'max_token_length', 255);
  if (max < 1) throw illegalArgument('maxTokenLength must be greater than zero');
  return max;
}

export const COMMON_TOKENIZERS: Record<string, TokenizerProvider> = {
  thai: (name) => ({ name, create: () => new ThaiTokenizer() }),
  classic: (name, p) => {
    const max = maxTokenLength(p);
    return { name, create: () => new ClassicTokenizer(max) };
  },
  uax_url_email: (name, p) => {
    const max = maxTokenLength(p);
    return { name, create: () => new UaxUrlEmailTokenizer(max) };
  },
};
