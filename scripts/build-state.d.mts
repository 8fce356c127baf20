/** Types of build-state.mjs, for the TypeScript that imports it (bench/cases/first-start.ts). */
export function sourceHash(): string;
export function buildIsCurrent(): boolean;
export function recordBuild(): void;
