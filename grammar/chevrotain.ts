/**
 * Chevrotain, loaded from its own single-file ESM build (`lib/chevrotain.mjs`, shipped in the
 * package): Node loads it in ~60 ms, where the package entry pulls in hundreds of lodash-es
 * modules (~0.5 s of every node start). Same version and API; the package's types apply.
 * Every grammar imports Chevrotain values from here, so token types and parsers share one copy.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Api from 'chevrotain';

const entry = createRequire(import.meta.url).resolve('chevrotain'); // <pkg>/lib/src/api.js
const bundle = join(dirname(entry), '..', 'chevrotain.mjs');
const c = (await import(
  existsSync(bundle) ? pathToFileURL(bundle).href : 'chevrotain'
)) as typeof Api;

export const createToken = c.createToken;
export const createTokenInstance = c.createTokenInstance;
export const tokenMatcher = c.tokenMatcher;
export const EOF = c.EOF;
export const Lexer = c.Lexer;
export type Lexer = Api.Lexer;
export const CstParser = c.CstParser;
export type CstParser = Api.CstParser;
export const EmbeddedActionsParser = c.EmbeddedActionsParser;
export type EmbeddedActionsParser = Api.EmbeddedActionsParser;
export type { IToken, TokenType } from 'chevrotain';
export const LLkLookaheadStrategy = c.LLkLookaheadStrategy;
export const getLookaheadPaths = c.getLookaheadPaths;
