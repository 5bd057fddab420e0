// The project's sources as the architecture guards read them: each file parsed once per worker with
// TypeScript 6's compiler API (parent links set), for whichever guard asks first. The guards walk the same
// few hundred files, the import graph of lambda/ twice, and a guard file sharing a worker with another (the
// unit project's threads run file after file: vitest.config.ts) finds them parsed already.
import { readFileSync } from 'node:fs';
import ts from '@typescript/typescript6';

const parsed = new Map<string, ts.SourceFile>();

/** The file at the absolute `path`, parsed once per worker. */
export function parsedFile(path: string): ts.SourceFile {
  let file = parsed.get(path);
  if (file === undefined) {
    file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(path, file);
  }
  return file;
}

/** `text` parsed as the file at `path`, or that file as it is on disk when no text is given. */
export function parsedText(path: string, absolutePath: string, text: string | undefined): ts.SourceFile {
  return text === undefined ? parsedFile(absolutePath) : ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
}
