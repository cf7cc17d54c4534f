/** Kebab-case slug matching the import format's `^[a-z0-9]+(?:-[a-z0-9]+)*$`. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export const pad = (n: number, width: number): string => String(n).padStart(width, '0');
