/**
 * The SQL parser's first-token lookahead (grammar/sql/lookahead.ts) against Chevrotain's own
 * LL(k) strategy: the same CST for every parse fixture and spec statement, and the same failure
 * for token mutations of them (a token dropped, doubled or replaced).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CstNode } from 'chevrotain';
import { describe, expect, it } from 'vitest';
import { LLkLookaheadStrategy } from '../../../../grammar/chevrotain.js';
import { tokenizeSql } from '../../../../grammar/sql/lexer.js';
import { SqlParser } from '../../../../grammar/sql/parser.js';
import { findFiles, repoRoot } from '../../../helpers/golden.js';

const fast = new SqlParser();
const chevrotain = new SqlParser(new LLkLookaheadStrategy({ maxLookahead: 3 }));

function statements(): string[] {
  const out = new Set<string>();
  for (const f of findFiles(resolve(repoRoot, 'fixtures/sql/parse'), '.sql'))
    out.add(readFileSync(f, 'utf8'));
  for (const f of findFiles(resolve(repoRoot, 'fixtures/sql'), '.csv-spec')) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/^(SELECT|SHOW|DESCRIBE|SYS|WITH)\b[^;]*;/gim))
      out.add(m[0].slice(0, -1));
  }
  return [...out];
}

/** A CST as text: rule names, child keys and token images with offsets. */
function shape(node: CstNode): string {
  const parts: string[] = [];
  for (const [key, children] of Object.entries(node.children)) {
    for (const c of children) {
      parts.push('image' in c ? `${key}:${c.image}@${c.startOffset}` : shape(c));
    }
  }
  return `${node.name}(${parts.join(' ')})`;
}

function outcome(p: SqlParser, text: string): string {
  const cst = p.parse(tokenizeSql(text).tokens, 'singleStatement');
  return cst
    ? shape(cst)
    : JSON.stringify(p.errors.map((e) => [e.name, e.message, e.token.startOffset]));
}

describe('first-token lookahead', () => {
  it('makes the choices of Chevrotain LL(k) on statements and their mutations', () => {
    const texts = statements();
    expect(texts.length).toBeGreaterThan(200);
    let compared = 0;
    for (const text of texts) {
      const tokens = tokenizeSql(text).tokens;
      const variants = [text];
      for (let i = 0; i < Math.min(tokens.length, 4); i++) {
        const t = tokens[i]!;
        const pre = text.slice(0, t.startOffset);
        const post = text.slice(t.endOffset! + 1);
        variants.push(pre + post, `${pre}(${post}`);
      }
      for (const v of variants) {
        expect(outcome(fast, v), v).toEqual(outcome(chevrotain, v));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1500);
  }, 120_000);
});
