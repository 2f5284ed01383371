/**
 * Recursive-descent parser for the Painless subset, following PainlessParser.g4's statement forms
 * and expression precedence (multiplicative binds tightest, then additive, shifts, relational,
 * equality, bitwise and/xor/or, &&, ||, ?:, elvis, assignment). Error wording follows Painless's
 * ParserErrorStrategy ("unexpected token [..] was expecting one of [..].", "unexpected end of
 * script.", "invalid sequence of tokens near [..].").
 */
import { REGEXES_DISABLED } from './settings.js';
import type { Expr, FunctionDecl, Param, ScriptAst, Stmt } from './ast.js';
import { ScriptCompileError } from './errors.js';
import { tokenize, type Token } from './lexer.js';

/** Type names Painless's lexer recognises as TYPE tokens (the subset we know). */
export const TYPE_NAMES = new Set([
  'def',
  'int',
  'long',
  'double',
  'float',
  'short',
  'byte',
  'char',
  'boolean',
  'void',
  'String',
  'Object',
  'Integer',
  'Long',
  'Double',
  'Float',
  'Short',
  'Byte',
  'Boolean',
  'Character',
  'Number',
  'Map',
  'HashMap',
  'List',
  'ArrayList',
  'Set',
  'HashSet',
  'Collection',
  'StringBuilder',
  'Iterator',
  'Supplier',
  'Function',
  'BiFunction',
  'Consumer',
  'BiConsumer',
  'Predicate',
  'BiPredicate',
  'Comparator',
  'Runnable',
]);

const BINARY_LEVELS: string[][] = [
  ['||'],
  ['&&'],
  ['|'],
  ['^'],
  ['&'],
  ['==', '===', '!=', '!=='],
  ['<', '<=', '>', '>='],
  ['<<', '>>', '>>>'],
  ['+', '-'],
  ['*', '/', '%'],
];

const ASSIGN_OPS = new Set([
  '=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '<<=',
  '>>=',
  '>>>=',
]);

export function parseScript(source: string): ScriptAst {
  return new Parser(tokenize(source)).parseSource();
}

class Parser {
  private i = 0;
  constructor(private readonly toks: Token[]) {}

  private get tok(): Token {
    return this.toks[this.i]!;
  }
  private peek(k = 1): Token {
    return this.toks[Math.min(this.i + k, this.toks.length - 1)]!;
  }
  private isOp(text: string, t: Token = this.tok): boolean {
    return t.kind === 'op' && t.text === text;
  }
  private isKw(text: string, t: Token = this.tok): boolean {
    return t.kind === 'kw' && t.text === text;
  }
  private next(): Token {
    return this.toks[this.i++]!;
  }
  private expectOp(text: string): Token {
    if (!this.isOp(text)) throw this.mismatch(`'${text}'`);
    return this.next();
  }

  private mismatch(expected: string): ScriptCompileError {
    const t = this.tok;
    if (t.kind === 'eof') return new ScriptCompileError('unexpected end of script.', t.start);
    return new ScriptCompileError(
      `unexpected token [${display(t)}] was expecting one of [${expected}].`,
      t.start,
    );
  }
  private invalid(): ScriptCompileError {
    const t = this.tok;
    if (t.kind === 'eof') return new ScriptCompileError('unexpected end of script.', t.start);
    return new ScriptCompileError(`invalid sequence of tokens near [${display(t)}].`, t.start);
  }

  parseSource(): ScriptAst {
    const functions: FunctionDecl[] = [];
    // Painless: `source: function* statement* EOF`
    while (this.atFunction()) functions.push(this.functionDecl());
    const body: Stmt[] = [];
    while (this.tok.kind !== 'eof') body.push(this.statement(true));
    return { functions, body };
  }

  private atFunction(): boolean {
    return this.atDeclaration() && this.isOp('(', this.peek(this.typeLength() + 1));
  }

  /** Tokens taken by the type at the cursor (`int`, `int[][]`). */
  private typeLength(): number {
    let k = 1;
    while (this.isOp('[', this.peek(k)) && this.isOp(']', this.peek(k + 1))) k += 2;
    return k;
  }

  private functionDecl(): FunctionDecl {
    const pos = this.tok.start;
    const returnType = this.decltype();
    const name = this.next().text;
    this.expectOp('(');
    const params: Param[] = [];
    while (!this.isOp(')')) {
      if (params.length) this.expectOp(',');
      if (!this.atDeclaration()) throw this.invalid();
      const type = this.decltype();
      const id = this.next();
      params.push({ name: id.text, type, pos: id.start });
    }
    this.next();
    const block = this.block();
    return { name, pos, returnType, params, body: block.kind === 'Block' ? block.body : [block] };
  }

  /** At `x ->`, `() ->`, `(a, b) ->` or `(Type a) ->`. */
  private atLambda(): boolean {
    if (this.tok.kind === 'id') return this.isOp('->', this.peek());
    if (!this.isOp('(')) return false;
    let k = 1;
    for (;;) {
      const t = this.peek(k);
      if (this.isOp(')', t)) return this.isOp('->', this.peek(k + 1));
      if (t.kind !== 'id' && !this.isOp(',', t)) return false;
      k++;
    }
  }

  private lambda(): Expr {
    const pos = this.tok.start;
    const params: Param[] = [];
    if (this.tok.kind === 'id') {
      const id = this.next();
      params.push({ name: id.text, type: 'def', pos: id.start });
    } else {
      this.expectOp('(');
      while (!this.isOp(')')) {
        if (params.length) this.expectOp(',');
        const typed = this.peek(0).kind === 'id' && this.peek().kind === 'id';
        const type = typed ? this.decltype() : 'def';
        const id = this.next();
        if (id.kind !== 'id') throw this.invalid();
        params.push({ name: id.text, type, pos: id.start });
      }
      this.next();
    }
    this.expectOp('->');
    if (this.isOp('{')) {
      const block = this.block();
      return { kind: 'Lambda', pos, params, body: block.kind === 'Block' ? block.body : [block] };
    }
    const e = this.expression();
    return { kind: 'Lambda', pos, params, body: [{ kind: 'Return', pos: e.pos, expr: e }] };
  }

  /** statement: rstatement | dstatement (';' | EOF). */
  private statement(topLevel = false): Stmt {
    const t = this.tok;
    if (this.isKw('if')) return this.ifStatement();
    if (this.isKw('while')) {
      this.next();
      this.expectOp('(');
      const test = this.expression();
      this.expectOp(')');
      if (this.isOp(';')) {
        this.next();
        return { kind: 'While', pos: t.start, test, body: null };
      }
      return { kind: 'While', pos: t.start, test, body: this.trailer() };
    }
    if (this.isKw('for')) return this.forStatement();
    if (this.isOp('{')) return this.block();
    const s = this.dstatement();
    if (this.isOp(';')) this.next();
    else if (this.tok.kind !== 'eof' && !(this.isOp('}') && !topLevel)) {
      throw this.mismatch(`{<EOF>, ';'}`);
    }
    return s;
  }

  private dstatement(): Stmt {
    const t = this.tok;
    if (this.isKw('return')) {
      this.next();
      if (this.isOp(';') || this.isOp('}') || this.tok.kind === 'eof')
        return { kind: 'Return', pos: t.start, expr: null };
      return { kind: 'Return', pos: t.start, expr: this.expression() };
    }
    if (this.isKw('break')) {
      this.next();
      return { kind: 'Break', pos: t.start };
    }
    if (this.isKw('continue')) {
      this.next();
      return { kind: 'Continue', pos: t.start };
    }
    if (this.isKw('throw')) {
      this.next();
      return { kind: 'Throw', pos: t.start, expr: this.expression() };
    }
    if (this.isKw('do')) {
      this.next();
      const body = this.block();
      if (!this.isKw('while')) throw this.mismatch("'while'");
      this.next();
      this.expectOp('(');
      const test = this.expression();
      this.expectOp(')');
      return { kind: 'DoWhile', pos: t.start, test, body };
    }
    if (this.atDeclaration()) return this.declaration();
    return { kind: 'ExprStmt', pos: t.start, expr: this.expression() };
  }

  private atDeclaration(): boolean {
    const t = this.tok;
    if (t.kind !== 'id' || !TYPE_NAMES.has(t.text)) return false;
    let k = 1;
    while (this.isOp('[', this.peek(k)) && this.isOp(']', this.peek(k + 1))) k += 2;
    return this.peek(k).kind === 'id';
  }

  private decltype(): string {
    let type = this.next().text;
    while (this.isOp('[') && this.isOp(']', this.peek())) {
      this.next();
      this.next();
      type += '[]';
    }
    return type;
  }

  private declaration(): Stmt {
    const pos = this.tok.start;
    const type = this.decltype();
    const vars: Array<{ name: string; pos: number; init: Expr | null }> = [];
    do {
      if (vars.length) this.next();
      const id = this.tok;
      if (id.kind !== 'id') throw this.invalid();
      this.next();
      let init: Expr | null = null;
      if (this.isOp('=')) {
        this.next();
        init = this.expression();
      }
      vars.push({ name: id.text, pos: id.start, init });
    } while (this.isOp(','));
    return { kind: 'Decl', pos, type, vars };
  }

  private ifStatement(): Stmt {
    const pos = this.next().start;
    this.expectOp('(');
    const test = this.expression();
    this.expectOp(')');
    const then = this.trailer();
    let otherwise: Stmt | null = null;
    if (this.isKw('else')) {
      this.next();
      otherwise = this.trailer();
    }
    return { kind: 'If', pos, test, then, otherwise };
  }

  private forStatement(): Stmt {
    const pos = this.next().start;
    this.expectOp('(');
    // for (Type x : expr) / for (x in expr)
    if (this.atDeclaration() && this.isOp(':', this.peek(2))) {
      const type = this.decltype();
      const name = this.next().text;
      this.expectOp(':');
      const iterable = this.expression();
      this.expectOp(')');
      return { kind: 'ForEach', pos, type, name, iterable, body: this.trailer() };
    }
    if (this.tok.kind === 'id' && this.isKw('in', this.peek())) {
      const name = this.next().text;
      this.next();
      const iterable = this.expression();
      this.expectOp(')');
      return { kind: 'ForEach', pos, type: 'def', name, iterable, body: this.trailer() };
    }
    let init: Stmt | null = null;
    if (!this.isOp(';')) {
      init = this.atDeclaration()
        ? this.declaration()
        : { kind: 'ExprStmt', pos: this.tok.start, expr: this.expression() };
    }
    this.expectOp(';');
    const test = this.isOp(';') ? null : this.expression();
    this.expectOp(';');
    const update = this.isOp(')') ? null : this.expression();
    this.expectOp(')');
    if (this.isOp(';')) {
      this.next();
      return { kind: 'For', pos, init, test, update, body: null };
    }
    return { kind: 'For', pos, init, test, update, body: this.trailer() };
  }

  private trailer(): Stmt {
    return this.isOp('{') ? this.block() : this.statement();
  }

  private block(): Stmt {
    const pos = this.expectOp('{').start;
    const body: Stmt[] = [];
    while (!this.isOp('}')) {
      if (this.tok.kind === 'eof') throw this.invalid();
      body.push(this.statement());
    }
    this.next();
    return { kind: 'Block', pos, body };
  }

  // ---- expressions ----------------------------------------------------------------------------

  expression(): Expr {
    const left = this.conditional();
    if (this.tok.kind === 'op' && ASSIGN_OPS.has(this.tok.text)) {
      const op = this.next();
      if (left.kind !== 'Var' && left.kind !== 'Field' && left.kind !== 'Index') {
        throw new ScriptCompileError(
          'invalid assignment: cannot assign a value to ' + 'expression',
          op.start,
        );
      }
      const value = this.expression();
      return { kind: 'Assign', pos: op.start, op: op.text, target: left, value };
    }
    return left;
  }

  private conditional(): Expr {
    const test = this.binary(0);
    if (this.isOp('?')) {
      const pos = this.next().start;
      const then = this.expression();
      this.expectOp(':');
      const otherwise = this.expression();
      return { kind: 'Cond', pos, test, then, otherwise };
    }
    if (this.isOp('?:')) {
      const pos = this.next().start;
      return { kind: 'Elvis', pos, left: test, right: this.expression() };
    }
    return test;
  }

  private binary(level: number): Expr {
    if (level >= BINARY_LEVELS.length) return this.unary();
    const ops = BINARY_LEVELS[level]!;
    let left = this.binary(level + 1);
    for (;;) {
      const t = this.tok;
      if (level === 6 && this.isKw('instanceof')) {
        this.next();
        if (this.tok.kind !== 'id') throw this.invalid();
        const type = this.decltype();
        left = { kind: 'Instanceof', pos: t.start, operand: left, type };
        continue;
      }
      if (t.kind !== 'op' || !ops.includes(t.text)) return left;
      this.next();
      const right = this.binary(level + 1);
      left =
        t.text === '&&' || t.text === '||'
          ? { kind: 'Logical', pos: t.start, op: t.text, left, right }
          : { kind: 'Binary', pos: t.start, op: t.text, left, right };
    }
  }

  private unary(): Expr {
    const t = this.tok;
    if (t.kind === 'op') {
      if (t.text === '++' || t.text === '--') {
        this.next();
        const target = this.postfix();
        return { kind: 'IncDec', pos: t.start, op: t.text, prefix: true, target };
      }
      if (t.text === '!' || t.text === '-' || t.text === '+' || t.text === '~') {
        this.next();
        const operand = this.unary();
        // Fold negative literals so that `-2147483648` stays an int like Java.
        if (t.text === '-' && operand.kind === 'Num')
          return { ...operand, pos: t.start, value: -operand.value };
        return { kind: 'Unary', pos: t.start, op: t.text, operand };
      }
      if (t.text === '(' && this.atLambda()) return this.lambda();
      if (t.text === '(' && this.atCast()) {
        this.next();
        const type = this.decltype();
        this.expectOp(')');
        return { kind: 'Cast', pos: t.start, type, operand: this.unary() };
      }
    }
    const e = this.postfix();
    if (this.isOp('++') || this.isOp('--')) {
      const op = this.next();
      return {
        kind: 'IncDec',
        pos: op.start,
        op: op.text as '++' | '--',
        prefix: false,
        target: e,
      };
    }
    return e;
  }

  private atCast(): boolean {
    const t = this.peek();
    if (t.kind !== 'id' || !TYPE_NAMES.has(t.text)) return false;
    let k = 2;
    while (this.isOp('[', this.peek(k)) && this.isOp(']', this.peek(k + 1))) k += 2;
    if (!this.isOp(')', this.peek(k))) return false;
    // `(x) + 1` with a type-named variable is not a cast; a cast is followed by an operand.
    const after = this.peek(k + 1);
    return (
      after.kind === 'id' ||
      after.kind === 'num' ||
      after.kind === 'str' ||
      after.kind === 'kw' ||
      (after.kind === 'op' && ['(', '!', '~', '-', '+', '['].includes(after.text))
    );
  }

  private postfix(): Expr {
    let e = this.primary();
    for (;;) {
      const t = this.tok;
      if (this.isOp('.') || this.isOp('?.')) {
        this.next();
        const nullSafe = t.text === '?.';
        const name = this.tok;
        if (name.kind !== 'id' && name.kind !== 'kw' && name.kind !== 'num') throw this.invalid();
        this.next();
        if (this.isOp('(')) {
          const args = this.arguments();
          e = { kind: 'Call', pos: name.start, object: e, name: name.text, args, nullSafe };
        } else {
          e = { kind: 'Field', pos: name.start, object: e, name: name.text, nullSafe };
        }
        continue;
      }
      if (this.isOp('[')) {
        this.next();
        const index = this.expression();
        this.expectOp(']');
        e = { kind: 'Index', pos: t.start, object: e, index };
        continue;
      }
      return e;
    }
  }

  private arguments(): Expr[] {
    this.expectOp('(');
    const args: Expr[] = [];
    if (this.isOp(')')) {
      this.next();
      return args;
    }
    for (;;) {
      args.push(this.expression());
      if (this.isOp(',')) {
        this.next();
        continue;
      }
      if (this.isOp(')')) {
        this.next();
        return args;
      }
      throw this.mismatch(`{',', ')'}`);
    }
  }

  private primary(): Expr {
    const t = this.tok;
    switch (t.kind) {
      case 'num':
        this.next();
        return { kind: 'Num', pos: t.start, value: t.value!, numType: t.numType! };
      case 'str':
        this.next();
        return { kind: 'Str', pos: t.start, value: t.text };
      case 'kw':
        if (t.text === 'true' || t.text === 'false') {
          this.next();
          return { kind: 'Bool', pos: t.start, value: t.text === 'true' };
        }
        if (t.text === 'null') {
          this.next();
          return { kind: 'Null', pos: t.start };
        }
        if (t.text === 'new') return this.newExpr();
        throw this.invalid();
      case 'id':
        if (this.atLambda()) return this.lambda();
        this.next();
        if (this.isOp('('))
          return { kind: 'LocalCall', pos: t.start, name: t.text, args: this.arguments() };
        return { kind: 'Var', pos: t.start, name: t.text };
      case 'op':
        if (t.text === '(' && this.atLambda()) return this.lambda();
        if (t.text === '(') {
          this.next();
          const e = this.expression();
          this.expectOp(')');
          return e;
        }
        if (t.text === '[') return this.collectionInit();
        // A `/` where an operand belongs opens a regex literal, off unless the node enables them.
        if (t.text === '/')
          throw new ScriptCompileError(REGEXES_DISABLED, t.start, 'illegal_state_exception');
        throw this.invalid();
      default:
        throw this.invalid();
    }
  }

  private newExpr(): Expr {
    const pos = this.next().start;
    const type = this.tok;
    if (type.kind !== 'id') throw this.invalid();
    this.next();
    if (this.isOp('[')) {
      this.next();
      if (this.isOp(']')) {
        this.next();
        this.expectOp('{');
        const items: Expr[] = [];
        while (!this.isOp('}')) {
          if (items.length) this.expectOp(',');
          items.push(this.expression());
        }
        this.next();
        return { kind: 'NewArray', pos, type: type.text, size: null, items };
      }
      const size = this.expression();
      this.expectOp(']');
      return { kind: 'NewArray', pos, type: type.text, size, items: null };
    }
    return { kind: 'New', pos, type: type.text, args: this.arguments() };
  }

  private collectionInit(): Expr {
    const pos = this.next().start;
    if (this.isOp(':') && this.isOp(']', this.peek())) {
      this.next();
      this.next();
      return { kind: 'MapInit', pos, entries: [] };
    }
    if (this.isOp(']')) {
      this.next();
      return { kind: 'ListInit', pos, items: [] };
    }
    const first = this.expression();
    if (this.isOp(':')) {
      this.next();
      const entries: Array<[Expr, Expr]> = [[first, this.expression()]];
      while (this.isOp(',')) {
        this.next();
        const k = this.expression();
        this.expectOp(':');
        entries.push([k, this.expression()]);
      }
      this.expectOp(']');
      return { kind: 'MapInit', pos, entries };
    }
    const items = [first];
    while (this.isOp(',')) {
      this.next();
      items.push(this.expression());
    }
    this.expectOp(']');
    return { kind: 'ListInit', pos, items };
  }
}

/** ANTLR getTokenErrorDisplay: the token's source text in single quotes (<EOF> unquoted). */
function display(t: Token): string {
  if (t.kind === 'eof') return '<EOF>';
  return `'${t.raw ?? t.text}'`;
}
