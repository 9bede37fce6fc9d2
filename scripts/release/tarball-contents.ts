/** What a packed tarball holds: its `package/package.json` and the paths of its files. */
import { list } from 'tar';

export interface TarballContents {
  manifest: Record<string, unknown>;
  /** Paths relative to the package root (`dist/index.js`), as the manifest names them. */
  files: Set<string>;
}

export async function readTarball(file: string): Promise<TarballContents> {
  const files = new Set<string>();
  let manifest: Buffer | undefined;
  await list({
    file,
    onReadEntry: (entry) => {
      const path = entry.path.replace(/^package\//, '');
      if (entry.type === 'File') files.add(path);
      if (path !== 'package.json') return;
      // Listing resumes every entry after this call: the manifest's bytes come to these listeners.
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => {
        manifest = Buffer.concat(chunks);
      });
    },
  });
  if (!manifest) throw new Error(`${file} has no package/package.json`);
  return { manifest: JSON.parse(manifest.toString('utf8')) as Record<string, unknown>, files };
}
