// A zip answer's entries, read back as a person's unzip would see them.
import yauzl from 'yauzl';

export interface ZipEntry {
  bytes: Buffer;
  modified: Date;
}

/** Every entry of the zip in `bytes`, by name, in the zip's order. */
export async function zipEntries(bytes: Buffer): Promise<Map<string, ZipEntry>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  const entries = new Map<string, ZipEntry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) =>
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          entries.set(entry.fileName, { bytes: Buffer.concat(chunks), modified: entry.getLastModDate() });
          zip.readEntry();
        });
      }),
    );
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}
