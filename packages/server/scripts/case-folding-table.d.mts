export const UNICODE_VERSION: string;
export const GENERATED_PATH: string;
export function loadMappings(): Promise<Array<[number, number]>>;
export function compress(mappings: Array<[number, number]>): number[][];
export function renderTable(): Promise<string>;
