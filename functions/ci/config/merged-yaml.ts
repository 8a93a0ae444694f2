// The `merged_yaml` of GitLab 13.6's lint: Ruby's `to_yaml` of the expanded configuration, whose keys are Ruby
// symbols (written `:key`), sequences not indented under their key, and a leading document marker.
import { Document } from 'yaml';
import { isHash } from './extends.ts';

const symbolKeys = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(symbolKeys) : isHash(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [`:${k}`, symbolKeys(x)])) : v;

export function mergedYaml(config: Record<string, unknown>): string {
  const doc = new Document(symbolKeys(config));
  doc.directives!.docStart = true;
  return doc.toString({ indentSeq: false, lineWidth: 0 });
}
