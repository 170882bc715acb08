import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_FILE, type RenderedSite, SITE_FORMAT, type SiteManifest } from '../built-site.js';

/**
 * Writes a rendered site as its files and manifest (built-site.ts). The files go to a fresh
 * folder that then takes the place of `dir`, so a server starting meanwhile (a test, a second
 * terminal) reads the old site or the new one, never half of each.
 */
export async function writeSite(
  dir: string,
  site: RenderedSite,
  fingerprint: string,
): Promise<void> {
  const fresh = `${dir}.new-${process.pid}`;
  const old = `${dir}.old-${process.pid}`;
  await rm(fresh, { recursive: true, force: true });
  const manifest: SiteManifest = { format: SITE_FORMAT, fingerprint, slugs: site.slugs, files: {} };
  for (const [name, file] of [...site.files].sort(([a], [b]) => a.localeCompare(b))) {
    const target = path.join(fresh, name);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.body);
    manifest.files[name] = file.type;
  }
  await writeFile(path.join(fresh, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(dir, old).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(fresh, dir);
  await rm(old, { recursive: true, force: true });
}
