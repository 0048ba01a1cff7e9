import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The rooms of the code and which way their doors open, read from the sources' own imports: a
 * feature never imports another (it reads them through src/shared, a service or events), the layers
 * below the features never import one (they iterate the list the features' index gives), shared code
 * imports nothing of a side, and no file reaches itself through its imports.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const SOURCES = ['src', 'workflows'];

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : filesUnder(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const SPECIFIER = /(?:import|export)\s[^'"]*?from\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/g;

/** A file's imports of files of the tree, as paths from the project's root. */
function importsOf(file: string, known: Set<string>): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(SPECIFIER)].flatMap((m) => {
    const spec = m[1] ?? m[2];
    if (!spec.startsWith('.')) return [];
    const target = relative(ROOT, resolve(ROOT, dirname(file), spec));
    const found = [
      target.replace(/\.js$/, '.ts'),
      target.replace(/\.js$/, '.tsx'),
      `${target}/index.ts`,
    ].find((t) => known.has(t));
    return found ? [found] : [];
  });
}

const files = SOURCES.flatMap(filesUnder);
const known = new Set(files);
const graph = new Map(files.map((f) => [f, importsOf(f, known)]));
const edges = [...graph].flatMap(([from, tos]) => tos.map((to) => ({ from, to })));

/** The feature folder a file sits in (`server/access`), or undefined outside every feature. */
function featureOf(file: string): string | undefined {
  const m = /^src\/(server|client)\/features\/([^/]+)\//.exec(file);
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/** The features' own contract and list, at the features folder's root. */
const isContract = (file: string) => /^src\/(server|client)\/features\/[^/]+\.tsx?$/.test(file);

describe('the imports between the rooms of the code', () => {
  it('read a tree of a fair size (the reading itself works)', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(edges.length).toBeGreaterThan(1000);
    expect(graph.get('src/server/features/index.ts')).toContain('src/server/features/access/index.ts');
  });

  it('never lead from one feature into another, on either side', () => {
    const crossing = edges.filter(
      ({ from, to }) => featureOf(from) && featureOf(to) && featureOf(from) !== featureOf(to),
    );
    expect(crossing).toEqual([]);
  });

  it('never lead from below the features into one: only the features’ own index names them', () => {
    const upward = edges.filter(({ from, to }) => featureOf(to) && !featureOf(from) && !isContract(from));
    expect(upward).toEqual([]);
  });

  it('keep src/shared and workflows free of either side', () => {
    const sided = edges.filter(
      ({ from, to }) => /^(src\/shared|workflows)\//.test(from) && /^src\/(server|client)\//.test(to),
    );
    expect(sided).toEqual([]);
    const clientInServer = edges.filter(
      ({ from, to }) => from.startsWith('src/server/') && to.startsWith('src/client/'),
    );
    expect(clientInServer).toEqual([]);
  });

  it('keep the request engine free of the kinds it runs (they are handed to it)', () => {
    const engine = 'src/server/features/accreditation/engine/';
    const kinds = 'src/server/features/accreditation/kinds/';
    expect(edges.filter(({ from, to }) => from.startsWith(engine) && to.startsWith(kinds))).toEqual([]);
    expect(edges.some(({ from, to }) => from.startsWith(kinds) && to.startsWith(engine))).toBe(true);
  });

  it('never come back to the file they left from', () => {
    const cycles: string[][] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'open');
      path.push(file);
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
        else if (!state.has(next)) visit(next);
      }
      path.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });
});
