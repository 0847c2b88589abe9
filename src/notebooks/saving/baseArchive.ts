import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { BaseSnapshot } from './markdownSavePlan';

/** Bases of editors closed long ago (a reload that never came back) are removed after this long. */
const KEEP_MS = 30 * 24 * 60 * 60_000;

/**
 * What unsaved notebook editors are based on, kept on disk (the extension's global storage) so that after a
 * window reload, when VS Code restores the unsaved text, the next save still merges against the version the
 * text was based on. One small file per editor, named by a hash of its URI.
 */
export class BaseArchive {
  private pruned = false;

  constructor(private readonly directory: string) {}

  async save(key: string, base: BaseSnapshot, now = Date.now()): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    await writeFile(this.fileOf(key), JSON.stringify({ key, savedAt: now, base }));
    if (!this.pruned) {
      this.pruned = true;
      await this.prune(now);
    }
  }

  async load(key: string): Promise<BaseSnapshot | undefined> {
    let text: string;
    try {
      text = await readFile(this.fileOf(key), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const stored = JSON.parse(text) as { key?: unknown; base?: Partial<BaseSnapshot> };
      return stored.key === key && isBase(stored.base) ? stored.base : undefined;
    } catch {
      return undefined;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.fileOf(key), { force: true });
  }

  /** Removes bases saved more than 30 days before `now`. */
  async prune(now = Date.now()): Promise<void> {
    const names = await readdir(this.directory).catch((): string[] => []);
    await Promise.all(
      names.map(async (name) => {
        const file = path.join(this.directory, name);
        const info = await stat(file).catch(() => undefined);
        if (info && now - info.mtimeMs > KEEP_MS) {
          await rm(file, { force: true });
        }
      }),
    );
  }

  private fileOf(key: string): string {
    return path.join(this.directory, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);
  }
}

function isBase(value: Partial<BaseSnapshot> | undefined): value is BaseSnapshot {
  return (
    typeof value === 'object' &&
    value !== null &&
    Number.isSafeInteger(value.version) &&
    typeof value.text === 'string' &&
    typeof value.mtime === 'number' &&
    typeof value.editable === 'object' &&
    value.editable !== null &&
    'content' in value.editable
  );
}
