/**
 * Syntax tree of the Painless subset. Plain readonly objects with a `kind` discriminant; `pos` is
 * the source offset used for compile error snippets.
 */

export type NumType = 'int' | 'long' | 'float' | 'double';

export type Expr =
  | { kind: 'Num'; pos: number; value: number; numType: NumType }
  | { kind: 'Str'; pos: number; value: string }
  | { kind: 'Bool'; pos: number; value: boolean }
  | { kind: 'Null'; pos: number }
  | { kind: 'Var'; pos: number; name: string }
  | { kind: 'Unary'; pos: number; op: '!' | '-' | '+' | '~'; operand: Expr }
  | { kind: 'Binary'; pos: number; op: string; left: Expr; right: Expr }
  | { kind: 'Logical'; pos: number; op: '&&' | '||'; left: Expr; right: Expr }
  | { kind: 'Cond'; pos: number; test: Expr; then: Expr; otherwise: Expr }
  | { kind: 'Elvis'; pos: number; left: Expr; right: Expr }
  | { kind: 'Assign'; pos: number; op: string; target: Expr; value: Expr }
  | { kind: 'IncDec'; pos: number; op: '++' | '--'; prefix: boolean; target: Expr }
  | { kind: 'Field'; pos: number; object: Expr; name: string; nullSafe: boolean }
  | { kind: 'Index'; pos: number; object: Expr; index: Expr }
  | { kind: 'Call'; pos: number; object: Expr; name: string; args: Expr[]; nullSafe: boolean }
  | { kind: 'LocalCall'; pos: number; name: string; args: Expr[] }
  | { kind: 'Cast'; pos: number; type: string; operand: Expr }
  | { kind: 'Instanceof'; pos: number; operand: Expr; type: string }
  | { kind: 'ListInit'; pos: number; items: Expr[] }
  | { kind: 'MapInit'; pos: number; entries: Array<[Expr, Expr]> }
  | { kind: 'New'; pos: number; type: string; args: Expr[] }
  | { kind: 'NewArray'; pos: number; type: string; size: Expr | null; items: Expr[] | null }
  /** `(a, b) -> expr` or `x -> { ... }`: an expression body is a single return statement. */
  | { kind: 'Lambda'; pos: number; params: Param[]; body: Stmt[] };

export interface Param {
  readonly name: string;
  readonly type: string;
  readonly pos: number;
}

/** A function declared at the top of a script: `boolean f(def a, int b) { ... }`. */
export interface FunctionDecl {
  readonly name: string;
  readonly pos: number;
  readonly returnType: string;
  readonly params: Param[];
  readonly body: Stmt[];
}

export type Stmt =
  | {
      kind: 'Decl';
      pos: number;
      type: string;
      vars: Array<{ name: string; pos: number; init: Expr | null }>;
    }
  | { kind: 'ExprStmt'; pos: number; expr: Expr }
  | { kind: 'If'; pos: number; test: Expr; then: Stmt; otherwise: Stmt | null }
  | { kind: 'Block'; pos: number; body: Stmt[] }
  | { kind: 'Return'; pos: number; expr: Expr | null }
  | { kind: 'While'; pos: number; test: Expr; body: Stmt | null }
  | { kind: 'DoWhile'; pos: number; test: Expr; body: Stmt }
  | {
      kind: 'For';
      pos: number;
      init: Stmt | null;
      test: Expr | null;
      update: Expr | null;
      body: Stmt | null;
    }
  | { kind: 'ForEach'; pos: number; type: string; name: string; iterable: Expr; body: Stmt }
  | { kind: 'Break'; pos: number }
  | { kind: 'Continue'; pos: number }
  | { kind: 'Throw'; pos: number; expr: Expr };

export interface ScriptAst {
  readonly functions: FunctionDecl[];
  readonly body: Stmt[];
}
