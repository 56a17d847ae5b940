// The problem codes the reference server's source can emit, read from its syntax trees: the first
// argument of every `new <ApiError subclass>(…)`, or the code a subclass passes to `super` itself
// (MethodNotAllowedError). A code given any other way (a variable) cannot be inventoried: it is
// reported, so a test can refuse it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import * as errors from '../../server/src/errors.js';
import { repoRoot } from '../support/spec.js';

export interface EmittedCode {
  code: string;
  status: number;
  /** The source file, relative to the repository. */
  file: string;
}

const sourceRoot = join(repoRoot, 'server', 'src');

/** Each ApiError subclass with its status. */
function errorClasses(): Map<string, number> {
  const classes = new Map<string, number>();
  for (const [name, value] of Object.entries(errors)) {
    if (typeof value !== 'function' || !(value.prototype instanceof errors.ApiError)) continue;
    // One argument list that every error class's constructor accepts (as statuses.test.ts does).
    classes.set(name, (Reflect.construct(value, [['GET'], 'detail', 1]) as errors.ApiError).status);
  }
  return classes;
}

function sourceFiles(): string[] {
  return readdirSync(sourceRoot, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.parentPath.includes('generated'))
    .map((entry) => join(entry.parentPath, entry.name));
}

const parse = (file: string) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
const enclosingClass = (node: ts.Node): ts.ClassDeclaration | undefined =>
  ts.isClassDeclaration(node) ? node : node.parent && enclosingClass(node.parent);

/** Every code the server's source emits, and every error construction whose code it cannot read. */
export function emittedCodes(): { codes: EmittedCode[]; unreadable: string[] } {
  const classes = errorClasses();
  const files = sourceFiles().map(parse);
  // Subclasses whose constructor passes a literal code to super: their callers give no code.
  const fixed = new Set<string>();
  const codes: EmittedCode[] = [];
  const unreadable: string[] = [];
  const visitSupers = (source: ts.SourceFile) => (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword) {
      const name = enclosingClass(node)?.name?.text;
      const [first] = node.arguments;
      if (name && classes.has(name) && first && ts.isStringLiteral(first)) {
        fixed.add(name);
        codes.push({ code: first.text, status: classes.get(name)!, file: relative(repoRoot, source.fileName) });
      }
    }
    ts.forEachChild(node, visitSupers(source));
  };
  const visitNews = (source: ts.SourceFile) => (node: ts.Node) => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && classes.has(node.expression.text)) {
      const name = node.expression.text;
      const [first] = node.arguments ?? [];
      const file = relative(repoRoot, source.fileName);
      if (first && ts.isStringLiteral(first)) codes.push({ code: first.text, status: classes.get(name)!, file });
      else if (!fixed.has(name)) unreadable.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    }
    ts.forEachChild(node, visitNews(source));
  };
  for (const source of files) ts.forEachChild(source, visitSupers(source));
  for (const source of files) ts.forEachChild(source, visitNews(source));
  return { codes, unreadable };
}

/** The source files an entry imports, directly or not (type-only imports too: services are injected). */
export function filesReachedFrom(entry: string): Set<string> {
  const reached = new Set<string>();
  const pending = [join(repoRoot, entry)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    for (const statement of parse(file).statements) {
      const specifier = (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier.text.replace(/\.js$/, '.ts'));
      if (existsSync(target)) pending.push(target);
    }
  }
  return new Set([...reached].map((file) => relative(repoRoot, file)));
}
