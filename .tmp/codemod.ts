// Splits imports of lambda/core/domain.ts by where each name now lives.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';
const ROOT = '/work/wt/kinds-own-rules';
const DOMAIN = resolve(ROOT, 'lambda/core/domain.ts');
const dest: Record<string, string> = {
  Alert: 'lambda/core/alert-kinds/alert.ts', ChainAlert: 'lambda/core/alert-kinds/alert.ts', AlertType: 'lambda/core/alert-kinds/alert.ts',
  TokenTransferAlert: 'lambda/core/alert-kinds/alert.ts', ContractLogAlert: 'lambda/core/alert-kinds/alert.ts', ContractCallAlert: 'lambda/core/alert-kinds/alert.ts',
  ContractStatusAlert: 'lambda/core/alert-kinds/alert.ts', RetractionAlert: 'lambda/core/alert-kinds/alert.ts', DeepReorgAlert: 'lambda/core/alert-kinds/alert.ts',
  SmsDigestAlert: 'lambda/core/alert-kinds/alert.ts', StxTransferAlert: 'lambda/core/alert-kinds/alert.ts', FtTransferAlert: 'lambda/core/alert-kinds/alert.ts', NftTransferAlert: 'lambda/core/alert-kinds/alert.ts',
  AlertBase: 'lambda/core/alert-kinds/alert-base.ts',
  OutgoingAlert: 'lambda/core/outgoing-alert.ts', Rendering: 'lambda/core/outgoing-alert.ts',
  WatchConfig: 'lambda/config/watch-config-schema.ts',
  ContractLogRule: 'lambda/core/alert-kinds/contract-log-rules.ts',
  ContractCallRule: 'lambda/core/alert-kinds/contract-call-rules.ts', CallStatusFilter: 'lambda/core/alert-kinds/contract-call-rules.ts',
  TransferRule: 'lambda/core/alert-kinds/transfer-rules.ts',
};
const options = ts.parseJsonConfigFileContent(ts.readConfigFile(ROOT + '/tsconfig.json', ts.sys.readFile).config, ts.sys, ROOT).options;
for (const file of process.argv.slice(2)) {
  const path = resolve(ROOT, file);
  const text = readFileSync(path, 'utf8');
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const edits: { start: number; end: number; text: string }[] = [];
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const r = ts.resolveModuleName(st.moduleSpecifier.text, path, options, ts.sys).resolvedModule?.resolvedFileName;
    if (!r || resolve(r) !== DOMAIN) continue;
    const clause = st.importClause;
    if (!clause?.namedBindings || !ts.isNamedImports(clause.namedBindings)) throw new Error(file);
    const allType = clause.isTypeOnly;
    const groups = new Map<string, string[]>();
    for (const el of clause.namedBindings.elements) {
      const name = (el.propertyName ?? el.name).text;
      const target = dest[name] ?? 'lambda/core/domain.ts';
      const spec = (el.isTypeOnly ? 'type ' : '') + el.getText(sf).replace(/^type /, '');
      groups.set(target, [...(groups.get(target) ?? []), spec]);
    }
    const lines = [...groups].map(([target, specs]) => {
      let rel = relative(dirname(path), resolve(ROOT, target)).replace(/\.ts$/, '');
      if (!rel.startsWith('.')) rel = './' + rel;
      const names = allType ? specs.map((s) => s.replace(/^type /, '')) : specs;
      return `import ${allType ? 'type ' : ''}{ ${names.join(', ')} } from '${rel}';`;
    });
    edits.push({ start: st.getStart(sf), end: st.getEnd(), text: lines.join('\n') });
  }
  if (edits.length === 0) continue;
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  writeFileSync(path, out);
  console.log('rewrote', file);
}
