// How codegen.ts finds its mappers (the value each GraphQL type is resolved from) in the domains: the type <Type> is
// resolved from the `<Type>Model` a functions/<domain>/models.ts exports. Texts in, mappers out, so tests/unit holds
// the scan to refusing a type two domains map (the later would silently win).
import { Kind, parse } from 'graphql';
import ts from 'typescript';

const MAPPABLE: ReadonlySet<Kind> = new Set([
  Kind.OBJECT_TYPE_DEFINITION,
  Kind.OBJECT_TYPE_EXTENSION,
  Kind.INTERFACE_TYPE_DEFINITION,
  Kind.INTERFACE_TYPE_EXTENSION,
  Kind.UNION_TYPE_DEFINITION,
  Kind.UNION_TYPE_EXTENSION,
]);

/** The object, interface and union types the SDL files define or extend: the types a model can resolve. */
export function schemaTypeNames(sdl: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const text of sdl) for (const def of parse(text).definitions) if (MAPPABLE.has(def.kind) && 'name' in def && def.name) names.add(def.name.value);
  return names;
}

/**
 * GraphQL type -> `path#Model` for every exported `<Type>Model` of the files whose <Type> the schema has. A model
 * declared as another model of its file (`export type BlobModel = TreeEntryModel`) names that one, so the types that
 * share a model share its name in generated.ts.
 */
export function mapperExports(files: ReadonlyArray<{ path: string; text: string }>, types: ReadonlySet<string>): Record<string, string> {
  const mappers: Record<string, string> = {};
  for (const file of files) {
    const exported = new Set<string>();
    const aliasOf = new Map<string, string>();
    for (const s of ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest).statements) {
      if ((ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
        exported.add(s.name.text);
        if (ts.isTypeAliasDeclaration(s) && ts.isTypeReferenceNode(s.type) && ts.isIdentifier(s.type.typeName) && !s.type.typeArguments) {
          aliasOf.set(s.name.text, s.type.typeName.text);
        }
      } else if (ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause)) {
        for (const e of s.exportClause.elements) exported.add(e.name.text);
      }
    }
    for (const name of exported) {
      const type = /^(\w+)Model$/.exec(name)?.[1];
      if (!type || !types.has(type)) continue;
      const alias = aliasOf.get(name);
      const earlier = mappers[type];
      if (earlier) throw new Error(`GraphQL codegen: ${type}Model is exported by both ${earlier.split('#')[0]} and ${file.path}`);
      mappers[type] = `${file.path}#${alias && exported.has(alias) ? alias : name}`;
    }
  }
  return mappers;
}
