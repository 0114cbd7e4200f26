/**
 * Builds the API reference into docs/api: `@effect/docgen` runs in each public
 * package (checking that every export has a description and `@since`, and
 * type-checking and running every `@example`), then its pages are gathered
 * under docs/api/<package>/ with an index. `npx -y pnpm@10 run docs` runs it.
 *
 * docgen prints a class whose members come from its base (a `Schema.Class`,
 * a tagged error, a `Context.Service`) as a bare `export declare class X`;
 * each such signature is replaced by the class's base and fields, typed by
 * the TypeScript compiler from the package's source (see `classSignatures`).
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import ts from "typescript"
import { root } from "./markdown.js"

interface Manifest {
  readonly name: string
  readonly private?: boolean
  readonly description: string
}

const out = join(root, "docs/api")
const packages = readdirSync(join(root, "packages"))
  .map((dir) => ({
    dir,
    manifest: JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8")) as Manifest
  }))
  .filter(({ manifest }) => manifest.private !== true)

/** A docgen page with its Jekyll front matter replaced by a heading. */
const page = (
  pkg: string,
  text: string
): { readonly title: string; readonly overview: string; readonly body: string } => {
  const title = /^title: (.+)\.ts$/m.exec(text)?.[1] ?? "index"
  const body = text.slice(text.indexOf("\n---\n") + 5).trimStart()
  const paragraph = (/^## .+ overview\n\n([\s\S]+?)\n\n/m.exec(body)?.[1] ?? "").replace(/\s+/g, " ")
  const overview = /^.+?\.(?= |$)/.exec(paragraph)?.[0] ?? paragraph
  return { title, overview, body: `# ${pkg}/${title}\n\n${body}` }
}

/** `true` for a declaration of this repository's source, not of a dependency or the standard library. */
const isOwn = (declaration: ts.Declaration): boolean => !declaration.getSourceFile().fileName.includes("/node_modules/")

/**
 * A class's base as written, without the fields it is given: `Schema.Class<X>("X")` of
 * `Schema.Class<X>("X")({ ... })`; a base given no object literal (a `Context.Service`) whole.
 */
const baseOf = (expression: ts.Expression): string => {
  for (let node = expression; ts.isCallExpression(node); node = node.expression) {
    if (node.arguments.some(ts.isObjectLiteralExpression)) return node.expression.getText()
  }
  return expression.getText()
}

/** A field's rank in a class's signature: `_tag`, then the fields, then the getters. */
const rank = (field: ts.Symbol): number =>
  field.name === "_tag" ? 0 : field.declarations?.some(ts.isGetAccessorDeclaration) ? 2 : 1

/**
 * A class's signature: its base, then its fields as its instances have them (`_tag`, the fields it declares
 * or is given, its getters), each with its documentation and its type as the compiler names it in the module
 * (`readonly ts: DateTime.Utc`; a type the module does not import is named by its module, `BigDecimal.BigDecimal`).
 */
const signatureOf = (checker: ts.TypeChecker, declaration: ts.ClassDeclaration): string | undefined => {
  const symbol = declaration.name && checker.getSymbolAtLocation(declaration.name)
  const base = declaration.heritageClauses?.[0]?.types[0]
  if (symbol === undefined || base === undefined) return undefined
  const fields = checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))
    .filter((field) => field.name === "_tag" || field.declarations?.some(isOwn))
    .sort((a, b) => rank(a) - rank(b))
    .map((field) => {
      const doc = ts.displayPartsToString(field.getDocumentationComment(checker)).replace(/\s+/g, " ")
      const type = checker.typeToString(
        checker.getTypeOfSymbolAtLocation(field, declaration),
        declaration,
        ts.TypeFormatFlags.NoTruncation
      ).replace(/import\("[^"]*\/(\w+)(?:\.[jt]s)?"\)\./g, "$1.")
      const optional = field.flags & ts.SymbolFlags.Optional ? "?" : ""
      return `${doc === "" ? "" : `  /** ${doc} */\n`}  readonly ${field.name}${optional}: ${type}\n`
    })
  return `export declare class ${symbol.name} extends ${baseOf(base.expression)} {${
    fields.length === 0 ? "" : `\n${fields.join("")}`
  }}`
}

/** The signature of every exported class of a package's public modules (`src/*.ts`), by module and class. */
const classSignatures = (cwd: string): ReadonlyMap<string, ReadonlyMap<string, string>> => {
  const config = ts.getParsedCommandLineOfConfigFile(join(cwd, "tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))
    }
  })
  const src = join(cwd, "src")
  const modules = (config?.fileNames ?? []).filter((file) => file === join(src, basename(file)))
  const program = ts.createProgram(modules, { ...config?.options, noEmit: true })
  const checker = program.getTypeChecker()
  return new Map(modules.map((file) => {
    const classes = new Map<string, string>()
    for (const statement of program.getSourceFile(file)?.statements ?? []) {
      if (!ts.isClassDeclaration(statement) || statement.name === undefined) continue
      const signature = signatureOf(checker, statement)
      if (signature !== undefined) classes.set(statement.name.text, signature)
    }
    return [basename(file, ".ts"), classes]
  }))
}

/** A docgen page with each bare class signature replaced by the class's signature with its fields. */
const withFields = (body: string, classes: ReadonlyMap<string, string> | undefined): string =>
  body.replace(/^```ts\nexport declare class (\w+)\n```$/gm, (bare, name: string) => {
    const signature = classes?.get(name)
    return signature === undefined ? bare : `\`\`\`ts\n${signature}\n\`\`\``
  })

rmSync(out, { recursive: true, force: true })
const index: Array<string> = [
  "# API reference",
  "",
  "Generated from the code's documentation by `npx -y pnpm@10 run docs` (`@effect/docgen`; every example in it is",
  "type-checked and run). Each module is also an entry point of its package, e.g. `@bitget-effect/core/Symbols`.",
  ""
]
for (const { dir, manifest } of packages) {
  const cwd = join(root, "packages", dir)
  execFileSync(join(root, "node_modules/.bin/docgen"), [], {
    cwd,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NODE_OPTIONS: "--conditions=@bitget-effect/source" }
  })
  const signatures = classSignatures(cwd)
  mkdirSync(join(out, dir), { recursive: true })
  index.push(`## ${manifest.name}`, "", manifest.description, "", "| module | |", "|---|---|")
  const modules = join(cwd, "docs/modules")
  for (const file of readdirSync(modules).filter((name) => name.endsWith(".ts.md")).sort()) {
    const { body, overview, title } = page(manifest.name, readFileSync(join(modules, file), "utf8"))
    writeFileSync(join(out, dir, `${title}.md`), withFields(body, signatures.get(title)))
    index.push(`| [${title}](${dir}/${title}.md) | ${overview} |`)
  }
  index.push("")
  rmSync(join(cwd, "docs"), { recursive: true, force: true })
}
writeFileSync(join(out, "README.md"), index.join("\n"))
console.log(`API reference of ${packages.length} packages in docs/api`)
