// Archives fetched as bytes from the in-process app, and read back with python3's tarfile and zipfile (through a
// child process: unzip may be missing, python3 is there) so the tests check what a real reader sees.
import { spawnSync } from 'node:child_process';
import { appFetch, TEST_PUBLIC_URL } from '../../helpers/app.ts';

export async function fetchArchive(path: string, token?: string, method = 'GET') {
  const res = await appFetch(new URL(`/api/v4${path}`, TEST_PUBLIC_URL), { method, headers: token ? { 'PRIVATE-TOKEN': token } : {} });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, json: () => JSON.parse(new TextDecoder().decode(bytes)) };
}

export interface ListedEntry {
  name: string;
  /** tar: the member's type ('0' file, '2' symlink, '5' directory); zip: 'dir' or 'file'. */
  type: string;
  mode?: number;
  size: number;
  mtime?: number;
  link?: string;
  /** zip: the external attributes, the creating system and the DOS date fields. */
  attr?: number;
  system?: number;
  date?: number[];
  sha256?: string;
  text?: string;
}

const PYTHON = String.raw`
import sys, json, tarfile, zipfile, io, hashlib
data = sys.stdin.buffer.read()
def body(b):
    e = {'sha256': hashlib.sha256(b).hexdigest()}
    if len(b) < 2000: e['text'] = b.decode('utf-8', 'replace')
    return e
out = []
if sys.argv[1] == 'zip':
    z = zipfile.ZipFile(io.BytesIO(data))
    for i in z.infolist():
        e = {'name': i.filename, 'type': 'dir' if i.is_dir() else 'file', 'size': i.file_size, 'attr': i.external_attr, 'system': i.create_system, 'date': list(i.date_time)}
        if not i.is_dir(): e.update(body(z.read(i)))
        out.append(e)
    print(json.dumps({'comment': z.comment.decode(), 'bad': z.testzip(), 'entries': out}))
else:
    t = tarfile.open(fileobj=io.BytesIO(data), mode='r:*')
    for m in t.getmembers():
        e = {'name': m.name, 'type': m.type.decode(), 'mode': m.mode, 'size': m.size, 'mtime': m.mtime, 'link': m.linkname}
        if m.isfile(): e.update(body(t.extractfile(m).read()))
        out.append(e)
    print(json.dumps({'comment': t.pax_headers.get('comment'), 'entries': out}))
`;

/** The archive's entries as python reads them (tar of any compression, or zip), and its comment. */
export function listArchive(bytes: Uint8Array, kind: 'tar' | 'zip'): { comment: string | null; bad?: string | null; entries: ListedEntry[] } {
  const run = spawnSync('python3', ['-c', PYTHON, kind], { input: bytes, maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`python3 could not read the archive: ${run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString());
}

/** Decompresses with the system's tools (`gzip -dc`, `bzip2 -dc`). */
export function decompress(bytes: Uint8Array, tool: 'gzip' | 'bzip2'): Buffer {
  const run = spawnSync(tool, ['-dc'], { input: bytes, maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`${tool} -dc failed: ${run.stderr.toString()}`);
  return run.stdout;
}
