/** Types of build-console.mjs, for the tests that build the console before driving it. */
export function compactSpecs(
  dir?: string,
): Record<string, [methods: string[], paths: string[], params: string[]]>;
export function buildConsole(
  outDir?: string,
): Promise<{ outDir: string; files: string[]; gzipped: number }>;
